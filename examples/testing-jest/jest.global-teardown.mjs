export default async () => {
  await globalThis.__CREDIT_SANDBOX__?.stop();
};

import { startSandbox } from 'credit-sandbox/testing';

export default async () => {
  const sandbox = await startSandbox({ seed: 'example-suite' });
  // globalThis is shared with globalTeardown; process.env is inherited by the test workers.
  globalThis.__CREDIT_SANDBOX__ = sandbox;
  process.env.SANDBOX_URL = sandbox.baseUrl;
  process.env.SANDBOX_CLIENT_ID = sandbox.clientId;
  process.env.SANDBOX_CLIENT_SECRET = sandbox.clientSecret;
};

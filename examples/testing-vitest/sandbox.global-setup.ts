import { startSandbox } from 'credit-sandbox/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
    clientId: string;
    clientSecret: string;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ seed: 'example-suite', startTime: '2026-03-02T12:00:00Z' });
  project.provide('sandboxUrl', sandbox.baseUrl);
  project.provide('clientId', sandbox.clientId);
  project.provide('clientSecret', sandbox.clientSecret);
  return () => sandbox.stop();
}

// One sandbox for the whole run: started in the parent process, stopped at the end.
export default {
  testEnvironment: 'node',
  globalSetup: './jest.global-setup.mjs',
  globalTeardown: './jest.global-teardown.mjs',
};

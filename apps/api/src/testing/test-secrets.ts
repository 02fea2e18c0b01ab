/** The secrets of the test configuration: the service specs' and the end-to-end harness's. */
export const TEST_SECRETS = {
  INGEST_SECRET: 'test-ingest-secret-0123456789',
  TOKEN_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  SESSION_SECRET: 'test-session-secret-0123456789abcdef0123456789',
};

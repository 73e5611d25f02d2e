/** Tests run the built package (dist/) through n8n-core's engine; ts-jest compiles the test files. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
	testTimeout: 60000,
	maxWorkers: 2,
};

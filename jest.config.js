/** Tests run the built package (dist/) through n8n-core's engine; ts-jest compiles the test files. */
// n8n-core logs every node error through its own logger; the tests assert them instead.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'silent';
// West of UTC (no summer time), where a time read in the wrong zone moves the trigger's window ahead. Set here, before
// the workers start: a test cannot change its zone (jest gives it a copy of process.env; Node reads only the real one).
process.env.TZ = 'America/Bogota';
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
	testTimeout: 60000,
	maxWorkers: 2,
};

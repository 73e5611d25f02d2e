/**
 * Benchmarks, apart from the tests (the root config only looks in test/): run with
 *   node --expose-gc node_modules/.bin/jest -c bench/jest.config.js --runInBand
 * Like the tests they run the built package (dist/), so `npm run build` first.
 */
const path = require('node:path');

module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>'],
	testMatch: ['**/*.bench.ts'],
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, '..', 'tsconfig.json'), diagnostics: false }] },
	// One bench at a time, and no timeouts cutting a slow machine short: timings are reported, never asserted.
	maxWorkers: 1,
	testTimeout: 600_000,
};

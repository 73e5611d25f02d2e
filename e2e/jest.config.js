/**
 * The end-to-end layer: typed tests against a real n8n and the sandbox, each suite starting its own (e2e/fixtures.ts).
 * Run by scripts/e2e-n8n.sh, which installs n8n first. Two suites at a time: each has its own sandbox, ports and n8n
 * user folder, and the trigger suite mostly waits for n8n's once-a-minute polls.
 */
const path = require('node:path');

module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>'],
	testMatch: ['**/*.e2e.ts'],
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, '..', 'tsconfig.json'), diagnostics: false }] },
	maxWorkers: 2,
	testSequencer: path.join(__dirname, 'sequencer.js'),
	testTimeout: 120_000,
	verbose: true,
};

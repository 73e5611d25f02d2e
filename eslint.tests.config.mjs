// The tests, benches and end-to-end layer, linted under n8n's community-node rules (`npm run lint` runs both).
// eslint.config.mjs stays n8n's default, which `n8n-node cloud-support` requires. Off here: the rules for code
// that runs inside n8n Cloud, since tests start processes, read files, wait on timers and hold the sandbox's
// made-up keys.
import { config } from '@n8n/node-cli/eslint';

export default [
	...config,
	{
		files: ['**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
		},
	},
];

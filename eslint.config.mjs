// n8n's official lint setup for community nodes (@n8n/node-cli), n8n-Cloud-compatible variant.
import { config } from '@n8n/node-cli/eslint';

export default [{ ignores: ['test/**', 'bench/**', 'e2e/**', 'scripts/**', '.tools/**', '.e2e/**', 'examples/**', 'docs/**', '*.js', '*.mjs'] }, ...config];

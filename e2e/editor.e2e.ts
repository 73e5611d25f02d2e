/**
 * The editor of n8n 2.40.7 in Debian's chromium (playwright-core; browsers cannot be downloaded here), with the
 * package installed and a credential pointing at the sandbox: the checks of e2e/editor.ts, in order, each saving a
 * screenshot. `npm run screenshots` runs this suite with E2E_SCREENSHOTS=docs/screenshots to refresh the README's.
 */
import { join, resolve } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { EDITOR_CHECKS, openEditor, type EditorContext } from './editor';
import { OWNER, useE2E } from './fixtures';

const CREDENTIAL = { id: 'c4wEditorCred001', name: 'Cloud4Wi account' };
const e2e = useE2E('editor', { credential: CREDENTIAL });

let browser: Browser | undefined;
let page: Page;
let ctx: EditorContext;

beforeAll(async () => {
	ctx = {
		n8nUrl: e2e.n8n.url,
		owner: OWNER,
		sandbox: { url: e2e.sandbox.url, ...e2e.sandbox.credentials, admin: e2e.sandbox.admin },
		credentialName: CREDENTIAL.name,
		screenshotDir: process.env.E2E_SCREENSHOTS ? resolve(process.env.E2E_SCREENSHOTS) : join(e2e.dir, 'screenshots'),
	};
	({ browser, page } = await openEditor(ctx));
}, 180_000);

afterAll(async () => {
	await browser?.close();
});

test.each(EDITOR_CHECKS.map((check) => [check.name, check] as const))(
	'%s',
	async (_name, check) => {
		await check.run(page, ctx);
	},
	180_000,
);

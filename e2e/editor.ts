/**
 * What a user sees of the package in n8n's editor, driven in Debian's chromium by playwright-core: the node panel,
 * a node's form, the pickers that load from Cloud4Wi, the credential's Test button and the trigger's Fetch Test
 * Event. Each check starts from a fresh page state, throws when what it sees is wrong, and saves a screenshot
 * (e2e/editor.e2e.ts runs them; `npm run screenshots` refreshes docs/screenshots).
 * Selectors are n8n's own data-test-id attributes, the ones its Playwright suite uses.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions, INodeType } from 'n8n-workflow';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import { ROOT, sandboxToken } from './fixtures';

/** The editor lists one action per operation: as many as the built node's description has. */
function operationCount(): number {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Cloud4Wi } = require(join(ROOT, 'dist/nodes/Cloud4Wi/Cloud4Wi.node.js')) as { Cloud4Wi: new () => INodeType };
	return new Cloud4Wi().description.properties
		.filter((p) => p.name === 'operation')
		.reduce((n, p) => n + (p.options as INodePropertyOptions[]).length, 0);
}
const OPERATIONS = operationCount();

export interface EditorContext {
	/** An `n8n start` with the package installed and the owner set up. */
	n8nUrl: string;
	owner: { email: string; password: string };
	sandbox: {
		url: string;
		clientKey: string;
		clientSecret: string;
		organizationId: string;
		admin(method: string, path: string, body?: unknown): Promise<unknown>;
	};
	/** A cloud4WiApi credential of this name points at the sandbox. */
	credentialName: string;
	screenshotDir: string;
}

export interface EditorCheck {
	name: string;
	/** File name of the screenshot it saves. */
	screenshot: string;
	run(page: Page, ctx: EditorContext): Promise<void>;
}

/** Debian's chromium: browsers cannot be downloaded here. The closed network refuses Chromium's own connections. */
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const UI_MS = 60_000; // the first editor load compiles a lot of JavaScript on a small machine

/** Launches chromium and logs in as the owner; requests to other hosts than n8n's are refused at once. */
export async function openEditor(ctx: EditorContext): Promise<{ browser: Browser; page: Page }> {
	mkdirSync(ctx.screenshotDir, { recursive: true });
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	page.setDefaultTimeout(UI_MS);
	const n8nHost = new URL(ctx.n8nUrl).host;
	await page.route(
		(url) => url.host !== n8nHost,
		(route) => route.abort(),
	);
	const login = await page.request.post(`${ctx.n8nUrl}/rest/login`, {
		data: { emailOrLdapLoginId: ctx.owner.email, email: ctx.owner.email, password: ctx.owner.password },
	});
	if (!login.ok()) throw new Error(`log in as the owner: HTTP ${login.status()} ${await login.text()}`);
	return { browser, page };
}

const byTestId = (page: Page, id: string) => page.locator(`[data-test-id="${id}"]`);

async function shoot(page: Page, ctx: EditorContext, file: string) {
	await page.screenshot({ path: join(ctx.screenshotDir, file) });
}

function expectText(what: string, text: string, wanted: string | RegExp) {
	const ok = typeof wanted === 'string' ? text.includes(wanted) : wanted.test(text);
	if (!ok) throw new Error(`${what}: expected ${String(wanted)}, saw:\n${text.slice(0, 1500)}`);
}

/** A new, empty workflow in the editor. */
async function newWorkflow(page: Page, ctx: EditorContext) {
	await page.goto(`${ctx.n8nUrl}/workflow/new`);
	await byTestId(page, 'canvas-add-button').waitFor();
}

/** The node panel, searched for "Cloud4Wi", with the Cloud4Wi entry opened (its triggers and actions). */
async function openCloud4WiEntry(page: Page, ctx: EditorContext) {
	await newWorkflow(page, ctx);
	await byTestId(page, 'canvas-add-button').click();
	await byTestId(page, 'node-creator-search-bar').fill('Cloud4Wi');
	await byTestId(page, 'item-iterator-item').filter({ hasText: 'Cloud4Wi' }).first().click();
	await byTestId(page, 'node-creator').getByText('Triggers (13)').waitFor();
}

/**
 * Folds the entry's triggers and unfolds its actions. Which section starts open depends on the canvas and on n8n's
 * timing (a fresh CI machine once had the actions folded after one click), so each header is clicked until the
 * section shows as wanted.
 */
async function showActions(page: Page) {
	const panel = byTestId(page, 'node-creator');
	const triggers = panel.getByText('Triggers (13)');
	const actions = panel.getByText(`Actions (${OPERATIONS})`);
	const top = async (header: Locator) => (await header.boundingBox())?.y ?? 0;
	// Folded, the triggers leave the actions' header right under theirs; open, 13 rows lie between.
	const triggersFolded = async () => (await top(actions)) - (await top(triggers)) < 100;
	await toggleUntil(triggers, triggersFolded);
	await toggleUntil(actions, () => panel.getByText('Get many contacts', { exact: true }).isVisible());
	return panel;
}

async function toggleUntil(header: Locator, shown: () => Promise<boolean>) {
	for (let tries = 0; tries < 4 && !(await shown()); tries++) {
		await header.click();
		for (let wait = 0; wait < 20 && !(await shown()); wait++) await new Promise((r) => setTimeout(r, 100));
	}
	if (!(await shown())) throw new Error(`clicking "${await header.innerText()}" did not show or hide its section`);
}

/** Adds the Cloud4Wi node through the panel by one of its actions, which opens its form. */
async function addAction(page: Page, ctx: EditorContext, action: string) {
	await openCloud4WiEntry(page, ctx);
	const panel = await showActions(page);
	await panel.getByText(action, { exact: true }).click();
	await byTestId(page, 'node-parameters').waitFor();
}

/** The demo account's API, for what the pickers should show. */
async function cloud4Wi<T>(ctx: EditorContext, path: string): Promise<T> {
	const { url } = ctx.sandbox;
	const token = await sandboxToken(url, ctx.sandbox);
	const answer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
	if (!answer.ok) throw new Error(`GET ${path}: HTTP ${answer.status}`);
	return (await answer.json()) as T;
}

/** Opens a resource locator's list and returns what it offers (its names). */
async function pickerItems(page: Page, parameter: string): Promise<string[]> {
	const picker = byTestId(page, `resource-locator-${parameter}`);
	await picker.locator('[data-test-id="rlc-input"]').click();
	await byTestId(page, 'rlc-item').first().waitFor();
	return (await byTestId(page, 'rlc-item').allInnerTexts()).map((t) => t.trim());
}

function expectSameNames(what: string, shown: string[], expected: string[]) {
	const missing = expected.filter((name) => !shown.includes(name));
	const extra = shown.filter((name) => !expected.includes(name));
	if (missing.length || extra.length || shown.length === 0) {
		throw new Error(`${what}: missing ${JSON.stringify(missing)}, not expected ${JSON.stringify(extra)}`);
	}
}

export const EDITOR_CHECKS: EditorCheck[] = [
	{
		name: `the node panel's search for Cloud4Wi lists the node; its details say what it does, with ${OPERATIONS} actions and the trigger's 13 events`,
		screenshot: '1-node-panel.png',
		async run(page, ctx) {
			await openCloud4WiEntry(page, ctx);
			const panel = await showActions(page);
			await panel.getByText('Get many wifi connections', { exact: true }).waitFor();
			const text = await panel.innerText();
			// n8n shows the trigger's description for the merged entry: it must describe the whole node.
			expectText(
				'the description',
				text,
				/Guest WiFi contacts and their opt-ins.*starts a workflow on each new signup/s,
			);
			expectText('the actions', text, `Actions (${OPERATIONS})`);
			for (const action of [
				'Get many contacts',
				'Update consent choices of a contact',
				'Create a hotspot',
				'Get many wifi connections',
			]) {
				expectText('the actions', text, action);
			}
			await shoot(page, ctx, this.screenshot);
		},
	},
	{
		name: 'adding Contact → Get Many shows its fields, the credential already chosen, and Execute step lists contacts',
		screenshot: '2-contact-get-many.png',
		async run(page, ctx) {
			await addAction(page, ctx, 'Get many contacts');
			const form = await byTestId(page, 'node-parameters').innerText();
			for (const field of [
				'Credential',
				'Resource',
				'Operation',
				'Organization ID',
				'Return All',
				'Limit',
				'Filters',
				'Simplify',
			]) {
				expectText('the form', form, field);
			}
			const credential = await byTestId(page, 'node-credentials-select').locator('input').inputValue();
			if (credential !== ctx.credentialName)
				throw new Error(`credential chosen: "${credential}", expected "${ctx.credentialName}"`);
			await byTestId(page, 'node-execute-button').click();
			const output = byTestId(page, 'output-panel');
			await output.getByText('50 items').first().waitFor();
			await shoot(page, ctx, this.screenshot);
		},
	},
	{
		name: "the location picker lists the organization's locations, loaded from Cloud4Wi",
		screenshot: '3-location-picker.png',
		async run(page, ctx) {
			await addAction(page, ctx, 'Get a location');
			const shown = await pickerItems(page, 'locationId');
			const { locations } = await cloud4Wi<{ locations: Array<{ name: string }> }>(
				ctx,
				`/v1/organizations/${ctx.sandbox.organizationId}/locations?size=100`,
			);
			expectSameNames(
				'the location picker',
				shown,
				locations.map((l) => l.name),
			);
			await shoot(page, ctx, this.screenshot);
		},
	},
	{
		name: "the hotspot picker lists the organization's hotspots, loaded from Cloud4Wi",
		screenshot: '4-hotspot-picker.png',
		async run(page, ctx) {
			await addAction(page, ctx, 'Get a hotspot');
			const shown = await pickerItems(page, 'hotspotId');
			const { hotspots } = await cloud4Wi<{ hotspots: Array<{ name: string }> }>(
				ctx,
				`/v3/hotspots/organizations/${ctx.sandbox.organizationId}?limit=1000`,
			);
			const expected = hotspots.map((h) => h.name);
			// The picker shows the first page; every name it shows must be a hotspot of the organization.
			const unknown = shown.filter((name) => !expected.includes(name));
			if (shown.length === 0 || unknown.length)
				throw new Error(`the hotspot picker: ${JSON.stringify(shown)} (unknown: ${JSON.stringify(unknown)})`);
			await shoot(page, ctx, this.screenshot);
		},
	},
	{
		name: "the credential's Test button reports success; a wrong secret shows Cloud4Wi's message, never the secret",
		screenshot: '5-credential-test.png',
		async run(page, ctx) {
			await page.goto(`${ctx.n8nUrl}/home/credentials`);
			await page.getByText(ctx.credentialName, { exact: true }).first().click();
			const modal = byTestId(page, 'editCredential-modal');
			await modal.getByText('Connection tested successfully').waitFor();
			await modal.getByRole('button', { name: 'Retry' }).click();
			await modal.getByText('Connection tested successfully').waitFor();
			await shoot(page, ctx, this.screenshot);

			const secret = byTestId(page, 'parameter-input-clientSecret').locator('input');
			const save = async (value: string) => {
				await secret.fill(value);
				await byTestId(page, 'credential-save-button').click();
			};
			await save('wrong-secret-from-the-editor');
			await modal.getByText(/Couldn.t connect with these settings/).waitFor();
			await modal.getByText('More details').click();
			await modal.getByText('Invalid client key or secret').waitFor();
			const banner = await modal.innerText();
			if (banner.includes('wrong-secret-from-the-editor') || banner.includes(ctx.sandbox.clientSecret)) {
				throw new Error('the credential test shows the secret');
			}
			await save(ctx.sandbox.clientSecret); // put the right one back for the checks after this
			await modal.getByText('Connection tested successfully').waitFor();
		},
	},
	{
		name: 'Fetch Test Event on the Cloud4Wi Trigger shows the latest signup',
		screenshot: '6-trigger-test-event.png',
		async run(page, ctx) {
			const { events } = (await ctx.sandbox.admin('POST', '/__admin/events', [{ type: 'signup' }])) as {
				events: Array<{ event: { id: string } }>;
			};
			await openCloud4WiEntry(page, ctx);
			await byTestId(page, 'node-creator').getByText('On signup', { exact: true }).click();
			await byTestId(page, 'node-parameters').waitFor();
			await byTestId(page, 'node-execute-button').click();
			const output = byTestId(page, 'output-panel');
			await output.getByText('1 item').waitFor();
			await byTestId(page, 'radio-button-json').last().click();
			await output.getByText(events[0].event.id).first().waitFor();
			await shoot(page, ctx, this.screenshot);
		},
	},
];

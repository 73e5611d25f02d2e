'use strict';
// Writes the action workflows of the n8n end-to-end run (e2e/workflows/actions/*.json), the fixtures that
// scripts/e2e-n8n.sh imports. The JSON files are committed; edit this file and run it to change them:
//   node e2e/make-workflows.js
// (test/package/operations.test.ts writes them into a folder of its own, given as the argument, to find stale ones).
// Every workflow is Manual Trigger -> a chain of Cloud4Wi nodes. Node names are what e2e/check-actions.ts
// reads, so rename in both places.
const fs = require('node:fs');
const path = require('node:path');

/** The credential the e2e fixtures import (e2e/fixtures.ts, importCredential). */
const CREDENTIALS = { cloud4WiApi: { id: 'c4wE2eCred000001', name: 'Cloud4Wi sandbox (e2e)' } };

/** A resource locator in "By ID" mode, as the UI saves it. */
const byId = (value) => ({ __rl: true, mode: 'id', value });

function workflow(id, name, steps) {
	const nodes = [
		{ id: `${id}-n00`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
	];
	const connections = {};
	let previous = 'Start';
	steps.forEach(([nodeName, parameters], i) => {
		nodes.push({
			id: `${id}-n${String(i + 1).padStart(2, '0')}`,
			name: nodeName,
			type: 'n8n-nodes-cloud4wi.cloud4Wi',
			typeVersion: 1,
			position: [240 * (i + 1), 0],
			parameters,
			credentials: CREDENTIALS,
			// One run per node whatever the previous node returned; the chain goes on after an empty list, and
			// after a failed node (its error becomes the output item, so the checks name it and the next
			// operations are still tried).
			executeOnce: true,
			alwaysOutputData: true,
			onError: 'continueRegularOutput',
		});
		connections[previous] = { main: [[{ node: nodeName, type: 'main', index: 0 }]] };
		previous = nodeName;
	});
	return { id, name, active: false, settings: { executionOrder: 'v1' }, nodes, connections };
}

const firstContact = "={{ $('Contacts Get Many').first().json.cid }}";
const lastContact = "={{ $('Contacts Get Many').last().json.cid }}";
// A contact with WiFi connections (so devices and location events too), and one with campaign activity.
const wifiContact = "={{ $('WiFi Connections Get Many').first().json.customerId }}";
const campaignContact = "={{ $('Events Get Many').first().json.customerId }}";

const contacts = workflow('c4wE2eActions001', 'e2e 1: contacts, events, WiFi connections, segments', [
	['Contacts Get Many', { resource: 'contact', operation: 'getAll', limit: 5 }],
	['Contacts Get Many Filtered', { resource: 'contact', operation: 'getAll', limit: 3, filters: { hasEmail: true, sortBy: 'created', sortReverse: true } }],
	['Contact Get', { resource: 'contact', operation: 'get', contactId: firstContact }],
	['WiFi Connections Get Many', { resource: 'wifiConnection', operation: 'getAll', limit: 3 }],
	['Contact Get WiFi Connections', { resource: 'contact', operation: 'getWifiConnections', contactId: wifiContact, limit: 10 }],
	['Contact Get Devices', { resource: 'contact', operation: 'getDevices', contactId: wifiContact, returnAll: true }],
	['Contact Get Location Events', { resource: 'contact', operation: 'getLocationEvents', contactId: wifiContact, limit: 10 }],
	['Events Get Many', { resource: 'event', operation: 'getAll', limit: 4, filters: { events: ['send_email', 'open_email', 'click_email', 'promo', 'survey'] } }],
	['Contact Get Activities', { resource: 'contact', operation: 'getActivities', contactId: campaignContact, returnAll: true }],
	['Events Get Many For Contact', { resource: 'event', operation: 'getAllForContact', contactId: campaignContact, limit: 20 }],
	['Segments Get Many', { resource: 'segment', operation: 'getAll', organizationId: "={{ $('Contacts Get Many').first().json.organizationCid }}", returnAll: true }],
	['Contact Create Access Code', { resource: 'contact', operation: 'createAccessCode', contactId: firstContact }],
	[
		'Contact Update Opt-Ins',
		{
			resource: 'contact',
			operation: 'updateOptIns',
			contactId: firstContact,
			optIns: { optIn: [{ policy: 'mktgCommunications', accepted: true }, { policy: 'custom', customTitle: 'Newsletter', accepted: false }] },
		},
	],
	['Contact Delete', { resource: 'contact', operation: 'delete', contactId: lastContact }],
	['Get Deleted Contact', { resource: 'contact', operation: 'get', contactId: lastContact }],
]);

// Operations on seeded data, so each is tried even when creating a location fails.
const seeded = "={{ $('Get Many Locations').first().json.id }}";
const lastSeeded = "={{ $('Get Many Locations').last().json.id }}";
const hotspot = "={{ $('Create Hotspot').item.json.hotspotId }}";
const locationsAndHotspots = workflow('c4wE2eActions002', 'e2e 2: locations and hotspots (seeded location)', [
	['Get Many Locations', { resource: 'location', operation: 'getAll', returnAll: true }],
	['Get Location', { resource: 'location', operation: 'get', locationId: byId(seeded) }],
	['Update Location', { resource: 'location', operation: 'update', locationId: byId(seeded), updateFields: { description: 'updated by the e2e run', tags: ['e2e-updated'] } }],
	['Get Updated Location', { resource: 'location', operation: 'get', locationId: byId(seeded) }],
	[
		'Create Hotspot',
		{
			resource: 'hotspot',
			operation: 'create',
			name: 'E2E AP 1',
			locationId: byId(seeded),
			routerType: 'meraki',
			latitude: 45.4642,
			longitude: 9.19,
			macAddress: 'AA:BB:CC:00:11:22',
			addressAsLocation: true,
			additionalFields: { description: 'made by the e2e run', hotspotIdentifier: 'e2e-ap-0001', ssid: 'E2E-WiFi' },
		},
	],
	['Get Hotspot', { resource: 'hotspot', operation: 'get', hotspotId: byId(hotspot) }],
	['Get Hotspot By Identifier', { resource: 'hotspot', operation: 'getByIdentifier', hotspotIdentifier: 'e2e-ap-0001' }],
	['Update Hotspot', { resource: 'hotspot', operation: 'update', hotspotId: byId(hotspot), updateFields: { name: 'E2E AP 1 Renamed', description: 'updated by the e2e run', enabled: false } }],
	['Get Many Hotspots', { resource: 'hotspot', operation: 'getAll', returnAll: true, filters: { venueId: seeded } }],
	['Delete Hotspot', { resource: 'hotspot', operation: 'delete', hotspotId: byId(hotspot) }],
	['Get Hotspot After Delete', { resource: 'hotspot', operation: 'get', hotspotId: byId(hotspot) }],
	['Delete Location', { resource: 'location', operation: 'delete', locationId: byId(lastSeeded) }],
	['Get Deleted Location', { resource: 'location', operation: 'get', locationId: byId(lastSeeded) }],
]);

const created = "={{ $('Create Location').item.json.locationId }}";
const locationLifecycle = workflow('c4wE2eActions003', 'e2e 3: location lifecycle (create, get, update, find, delete)', [
	[
		'Create Location',
		{
			resource: 'location',
			operation: 'create',
			name: 'E2E Test Store',
			timezone: 'Europe/Rome',
			country: 'IT',
			address: 'Via Roma 1',
			city: 'Milan',
			state: 'MI',
			zip: '20121',
			loginProfileId: 'lp-e2e',
			locationProfileId: 'locp-e2e',
			welcomePortalId: 'wp-e2e',
			additionalFields: { categoryName: 'bar', description: 'made by the e2e run', externalId: 'ext-e2e-1', tags: ['e2e-run'] },
		},
	],
	['Get Created Location', { resource: 'location', operation: 'get', locationId: byId(created) }],
	['Update Created Location', { resource: 'location', operation: 'update', locationId: byId(created), updateFields: { name: 'E2E Test Store Renamed', tags: ['e2e-run', 'e2e-renamed'] } }],
	['Find Created Location', { resource: 'location', operation: 'getAll', returnAll: true, filters: { tags: ['e2e-run'] } }],
	['Delete Created Location', { resource: 'location', operation: 'delete', locationId: byId(created) }],
]);

// Last: revoking makes the next request log in again.
const tokenRevoke = workflow('c4wE2eActions004', 'e2e 4: revoke the token, then work on', [
	['Revoke Token', { resource: 'token', operation: 'revoke' }],
	['Segments After Revoke', { resource: 'segment', operation: 'getAll', limit: 2 }],
]);

const dir = process.argv[2] ?? path.join(__dirname, 'workflows', 'actions');
fs.mkdirSync(dir, { recursive: true });
for (const [file, wf] of [
	['1-contacts.json', contacts],
	['2-locations-hotspots.json', locationsAndHotspots],
	['3-location-lifecycle.json', locationLifecycle],
	['4-token-revoke.json', tokenRevoke],
]) {
	fs.writeFileSync(path.join(dir, file), `${JSON.stringify(wf, null, '\t')}\n`);
}

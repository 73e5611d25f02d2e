import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as contact from './resources/contact';
import * as event from './resources/event';
import * as hotspot from './resources/hotspot';
import * as location from './resources/location';
import * as segment from './resources/segment';
import * as token from './resources/token';
import * as wifiConnection from './resources/wifiConnection';
import { listSearch, loadOptions } from './shared/methods';
import { requestOptionsField, route, routeAsTool } from './shared/router';
import { maxAnswerLengthField, runsAsTool, toolDescriptionFields, withToolDefaults } from './shared/tool';

const resources = { contact, event, hotspot, location, segment, token, wifiConnection };

export class Cloud4Wi implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud4Wi',
		name: 'cloud4Wi',
		icon: { light: 'file:cloud4wi.svg', dark: 'file:cloud4wi.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read and manage Cloud4Wi guest WiFi data: contacts and their opt-ins, events, WiFi connections, segments, hotspots and locations',
		defaults: { name: 'Cloud4Wi' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloud4WiApi', required: true }],
		properties: [
			...toolDescriptionFields(resources),
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Contact',
						value: 'contact',
						description: 'A guest who signed up: profile, opt-ins, devices and history',
					},
					{ name: 'Event', value: 'event', description: 'Visits, signups, logins and campaign interactions' },
					{ name: 'Hotspot', value: 'hotspot', description: 'A WiFi access point of a location' },
					{ name: 'Location', value: 'location', description: 'A venue of the organization' },
					{ name: 'Segment', value: 'segment', description: 'An audience segment of contacts' },
					{ name: 'Token', value: 'token', description: 'The API session of the credential' },
					{ name: 'WiFi Connection', value: 'wifiConnection', description: 'A WiFi session with duration and traffic' },
				],
				default: 'contact',
			},
			...withToolDefaults(Object.values(resources).flatMap((r) => r.description)),
			requestOptionsField,
			maxAnswerLengthField,
		],
	};

	methods = { loadOptions, listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operations = Object.fromEntries(Object.entries(resources).map(([name, r]) => [name, r.operations]));
		return runsAsTool(this) ? await routeAsTool.call(this, operations) : await route.call(this, operations);
	}
}

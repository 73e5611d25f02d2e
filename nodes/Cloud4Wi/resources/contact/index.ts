import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as createAccessCode from './createAccessCode';
import * as del from './delete';
import * as get from './get';
import * as getActivities from './getActivities';
import * as getAll from './getAll';
import * as getDevices from './getDevices';
import * as getLocationEvents from './getLocationEvents';
import * as getWifiConnections from './getWifiConnections';
import * as updateOptIns from './updateOptIns';

export const operations: Record<string, Operation> = {
	createAccessCode,
	delete: del,
	get,
	getActivities,
	getAll,
	getDevices,
	getLocationEvents,
	getWifiConnections,
	updateOptIns,
};

export const description: INodeProperties[] = resourceFields(
	'contact',
	[
		{
			name: 'Create Access Code',
			value: 'createAccessCode',
			action: 'Create an access code for a contact',
			description: 'Create a one-time access code (OTP) for a contact',
		},
		{ name: 'Delete', value: 'delete', action: 'Delete a contact', description: 'Delete a contact' },
		{ name: 'Get', value: 'get', action: 'Get a contact', description: 'Get the profile of a contact' },
		{
			name: 'Get Activities',
			value: 'getActivities',
			action: 'Get activities of a contact',
			description: 'Get the surveys, messages and other content interactions of a contact',
		},
		{
			name: 'Get Devices',
			value: 'getDevices',
			action: 'Get devices of a contact',
			description: 'Get the devices of a contact with MAC address and connection counts',
		},
		{
			name: 'Get Location Events',
			value: 'getLocationEvents',
			action: 'Get location events of a contact',
			description: 'Get the visits and WiFi connections of a contact with date and duration',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many contacts',
			description: 'Get contacts of an organization, with filters',
		},
		{
			name: 'Get WiFi Connections',
			value: 'getWifiConnections',
			action: 'Get wifi connections of a contact',
			description: 'Get the WiFi sessions of a contact with duration, traffic and access point',
		},
		{
			name: 'Update Opt-Ins',
			value: 'updateOptIns',
			action: 'Update consent choices of a contact',
			description: 'Set the consent choices (opt-ins) of a contact',
		},
	],
	operations,
);

import { resource } from '../../shared/descriptions';
import * as createAccessCode from './createAccessCode';
import * as del from './delete';
import * as get from './get';
import * as getActivities from './getActivities';
import * as getAll from './getAll';
import * as getDevices from './getDevices';
import * as getLocationEvents from './getLocationEvents';
import * as getWifiConnections from './getWifiConnections';
import * as updateOptIns from './updateOptIns';

export const { description, operations } = resource('contact', [
	createAccessCode,
	del,
	get,
	getActivities,
	getAll,
	getDevices,
	getLocationEvents,
	getWifiConnections,
	updateOptIns,
]);

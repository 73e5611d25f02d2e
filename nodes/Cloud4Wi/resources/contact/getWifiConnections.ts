import { contactSubList } from './subList';

// Pages with the scroll id (`sid`/`sId`) like the organization-wide list.
export const { description, execute } = contactSubList('getWifiConnections', 'accountings', 'connections', {
	style: 'scroll',
	idParam: 'sid',
	idField: 'sId',
});

'use strict';
// Segments of the organization (one page, no paging).

const { generated, requireOrganization } = require('./common');

function list({ state, params }) {
	requireOrganization(state, params.organizationId);
	const { segments } = state.data;
	return { body: { generated: generated(state), size: segments.length, segments } };
}

module.exports = { list };

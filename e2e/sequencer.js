'use strict';
// The order of the e2e suites: the trigger suite mostly waits for n8n's once-a-minute polls, so it starts first and
// the others run beside it. Jest's own order (slowest first when it has timings from an earlier run, else the
// largest file first) would start it third in a fresh clone and add its wait to the run.
const Sequencer = require('@jest/test-sequencer').default;

const waitsLongest = (test) => /trigger\.e2e\.ts$/.test(test.path);

module.exports = class TriggerFirst extends Sequencer {
	async sort(tests) {
		const sorted = await super.sort(tests);
		return [...sorted.filter(waitsLongest), ...sorted.filter((test) => !waitsLongest(test))];
	}
};

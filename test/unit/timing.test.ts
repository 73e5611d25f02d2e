/** The production time limits, pinned: tests run them scaled down (scaleTimeLimits), so here they are checked as shipped. */
import { cloud4WiError } from '../../nodes/Cloud4Wi/shared/errors';
import { DEFAULT_TIMEOUT_MS } from '../../nodes/Cloud4Wi/shared/runs';
import { backOff, RATE_LIMIT_RETRIES, RETRIES, timing, waitBeforeRetry } from '../../nodes/Cloud4Wi/shared/timing';
import { ACTION_TYPE, node } from '../harness/cloud4wi';

test('the time limits as shipped', () => {
	expect(timing).toEqual({
		answerMs: DEFAULT_TIMEOUT_MS,
		loginMs: 30_000,
		loginWaitMostMs: 10_000,
		backOffMs: 500,
		retryWaitMostMs: 60_000,
		pollBudgetMs: 60_000,
		dropdownMs: 60_000,
	});
	expect([RETRIES, RATE_LIMIT_RETRIES, DEFAULT_TIMEOUT_MS]).toEqual([4, 8, 30_000]);
});

test('with the defaults, five tries of a read that never answers end within 3 minutes', () => {
	const backOffs = Array.from({ length: RETRIES }, (_, attempt) => backOff(attempt)).reduce((a, b) => a + b, 0);
	expect(backOffs).toBe(500 + 1000 + 2000 + 4000);
	expect((RETRIES + 1) * DEFAULT_TIMEOUT_MS + backOffs).toBeLessThan(180_000);
});

test.each([
	['no Retry-After: the back-off, doubling', undefined, [500, 1000, 2000, 4000]],
	['Retry-After 2 s: asked first, then never less than the back-off before', '2', [2000, 2000, 2000, 2000]],
	['Retry-After 0 asked again: never back to back', '0', [0, 500, 1000, 2000]],
	['an unreadable Retry-After: the back-off', '1e9', [500, 1000, 2000, 4000]],
])('the wait before a retry, %s', (_, header, waits) => {
	expect([0, 1, 2, 3].map((attempt) => waitBeforeRetry(header, attempt))).toEqual(waits);
});

test('the rate-limit message as shipped names the whole budget of waits (tests that run scaled see a twentieth)', () => {
	const error = cloud4WiError(
		node('Cloud4Wi', ACTION_TYPE, {}),
		{ kind: 'status', status: 429, said: 'rate limit exceeded' },
		{ method: 'GET', tries: 9 },
	);
	expect(error.description).toBe(
		"Cloud4Wi kept refusing for its rate limit. A request is tried again 8 times at most, waiting as Cloud4Wi's Retry-After asks, up to 60 s while it answers no other request. Try again later, or lower Max Concurrent Requests.",
	);
});

/** The production time limits, pinned: tests run them scaled down (scaleTimeLimits), so here they are checked as shipped. */
import { backOff, RATE_LIMIT_RETRIES, RETRIES, timing, waitBeforeRetry } from '../../nodes/Cloud4Wi/shared/timing';
import { DEFAULT_TIMEOUT_MS } from '../../nodes/Cloud4Wi/shared/runs';

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

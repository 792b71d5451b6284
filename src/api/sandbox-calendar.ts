import { createRoute, z } from '@hono/zod-openapi';
import { clockDate } from '../domain/credit/credit-context.js';
import { ApiError } from '../domain/errors.js';
import { addDays, daysBetween, isIsoDate } from '../finance/index.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import type { JsonText } from '../lib/view-text.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';

/** The longest range one call lists: ten years, like the longest clock advance. */
const MAX_RANGE_DAYS = 3660;
const DEFAULT_RANGE_DAYS = 365;
/** Ranges whose answer is kept (a year's is ~6 KB; ten years' ~60 KB). */
const CALENDAR_TEXTS = 64;

const DateParam = (name: 'from' | 'to', description: string, example: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: 'query' }, description, example });

const CalendarQuery = z.object({
  from: DateParam('from', 'First date (YYYY-MM-DD) to list; default the partner clock date', '2027-02-01'),
  to: DateParam(
    'to',
    'Last date (YYYY-MM-DD) to list, at most 3660 days after from; default from + 365 days',
    '2027-02-28',
  ),
});

const NonBusinessDaySchema = z
  .object({
    date: z.string().openapi({ example: '2027-02-08' }),
    kind: z.enum(['saturday', 'sunday', 'holiday']).openapi({ example: 'holiday' }),
    name: z
      .string()
      .nullable()
      .openapi({ description: "The holiday's name (Portuguese); null for a weekend", example: 'Carnaval' }),
  })
  .openapi('NonBusinessDay');

const CalendarSchema = z
  .object({
    region: z.string().nullable().openapi({
      description: 'The state added by --holidays-region; null = national calendar only',
      example: null,
    }),
    from: z.string().openapi({ example: '2027-02-01' }),
    to: z.string().openapi({ example: '2027-02-28' }),
    data: z.array(NonBusinessDaySchema),
    has_more: z.boolean().openapi({ description: 'Always false: the range is listed whole', example: false }),
  })
  .openapi('Calendar');

type CalendarAnswer = z.infer<typeof CalendarSchema>;

const list = createRoute({
  method: 'get',
  path: '/sandbox/calendar',
  operationId: 'getSandboxCalendar',
  tags: ['Sandbox control'],
  summary: 'List the non-business days the sandbox uses for payable_until',
  description:
    'Saturdays, Sundays and banking holidays (ANBIMA national calendar: national holidays plus Carnival Monday and Tuesday, Good Friday and Corpus Christi; plus the state of --holidays-region). An installment due on one of them is payable until the next business day without charges.',
  request: { query: CalendarQuery },
  responses: {
    200: json(CalendarSchema, 'The non-business days in the range, in date order'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

function checkedDate(value: string, param: 'from' | 'to'): string {
  if (!isIsoDate(value)) {
    throw new ApiError(
      'validation_failed',
      `${param} must be a calendar date written YYYY-MM-DD, got "${value}".`,
      {
        param,
      },
    );
  }
  return value;
}

export function sandboxCalendarRoutes(deps: AppDeps) {
  const app = createRouter();
  // The calendar never changes while the sandbox runs: a range's answer is made once. At most
  // CALENDAR_TEXTS ranges are kept (a few KB each for a year), then the cache starts over.
  const texts = new Map<string, string>();
  const calendarText = (from: string, to: string) => {
    const key = `${from}|${to}`;
    let text = texts.get(key);
    if (text === undefined) {
      const calendar = deps.engine.calendar;
      const answer = {
        region: calendar.region,
        from,
        to,
        data: calendar.nonBusinessDays(from, to),
        has_more: false,
      };
      text = JSON.stringify(answer);
      if (texts.size >= CALENDAR_TEXTS) texts.clear();
      texts.set(key, text);
    }
    return text as JsonText<CalendarAnswer>;
  };
  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const from =
      query.from === undefined ? clockDate({ clock: c.get('clock') }) : checkedDate(query.from, 'from');
    const to = query.to === undefined ? addDays(from, DEFAULT_RANGE_DAYS) : checkedDate(query.to, 'to');
    const span = daysBetween(from, to);
    if (span < 0 || span > MAX_RANGE_DAYS) {
      throw new ApiError(
        'validation_failed',
        `to must be on or after from and at most ${MAX_RANGE_DAYS} days later; got ${from} to ${to}. List a long range in parts.`,
        { param: 'to' },
      );
    }
    return sendJson(c, calendarText(from, to), 200);
  });
  return app;
}

import {
  type CapturedBody,
  isJsonMedia,
  MAX_JSON_DEPTH,
  type ParsedBody,
  parseBody,
  schemaValue,
} from './body-copy.js';
import type { Contract, DeclaredAnswer, Operation } from './contract.js';
import { type Departure, schemaDeparture, shortValue } from './departures.js';

/** One exchange as the checks read it. Header names are lower case. */
export interface ExchangeView {
  method: string;
  /** What follows the base URL, without the query: `/customers/cust_…`. */
  path: string;
  requestHeaders: Readonly<Record<string, string>>;
  requestBody: CapturedBody;
  status: number;
  responseHeaders: Readonly<Record<string, string>>;
  responseBody: CapturedBody;
}

export interface ExchangeVerdict {
  operation: Operation | undefined;
  departures: Departure[];
  /** Checks skipped, and why (a body over the validation limit). */
  notes: string[];
  request: ParsedBody;
  response: ParsedBody;
}

/** The headers a 429 must carry whenever the answer declares them (the limit is on, since it refused). */
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'];

function mediaTypeOf(contentType: string | undefined): string | undefined {
  const media = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  return media === '' ? undefined : media;
}

/**
 * Checks an exchange against the contract: the operation exists; the request body has a declared
 * media type and validates; the status is declared; the answer's media type is one declared for it
 * (a problem is `application/problem+json`); its body validates; the headers the answer declares as
 * required are there (`Location`), and on a `429` the rate-limit headers too; declared headers that
 * are present hold values their schema allows.
 */
export async function checkExchange(contract: Contract, view: ExchangeView): Promise<ExchangeVerdict> {
  const departures: Departure[] = [];
  const notes: string[] = [];
  const requestType = view.requestHeaders['content-type'];
  const responseType = view.responseHeaders['content-type'];
  const request = await parseBody(view.requestBody, requestType, view.requestHeaders['content-encoding']);
  const response = await parseBody(view.responseBody, responseType, view.responseHeaders['content-encoding']);
  const verdict: ExchangeVerdict = { operation: undefined, departures, notes, request, response };
  const operation = contract.match(view.method, view.path);
  if (!operation) {
    departures.push({
      where: 'operation',
      expected: 'a method and path the document declares',
      actual: `${view.method} ${view.path}`,
    });
    return verdict;
  }
  verdict.operation = operation;
  checkRequest(contract, operation, mediaTypeOf(requestType), request, departures, notes);
  const answer = contract.answer(operation, view.status);
  if (!answer) {
    departures.push({
      where: 'status',
      expected: `one of ${contract.declaredStatuses(operation).join(', ')}`,
      actual: String(view.status),
    });
    return verdict;
  }
  checkHeaders(contract, answer, view, departures);
  checkAnswerBody(contract, answer, mediaTypeOf(responseType), response, departures, notes);
  return verdict;
}

function checkRequest(
  contract: Contract,
  operation: Operation,
  media: string | undefined,
  parsed: ParsedBody,
  departures: Departure[],
  notes: string[],
): void {
  const declared = contract.requestBody(operation);
  if (!declared || parsed.kind === 'none') return;
  if (parsed.kind === 'too-large') {
    notes.push(`request body of ${parsed.size} bytes is over the validation limit: not validated`);
    return;
  }
  if (parsed.kind === 'too-deep') {
    notes.push(`request body nests deeper than ${MAX_JSON_DEPTH} levels: not validated`);
    return;
  }
  if (media === undefined || !declared.media.has(media)) {
    departures.push({
      where: 'request content-type',
      expected: [...declared.media.keys()].join(' or '),
      actual: media ?? 'absent',
    });
    return;
  }
  if (parsed.kind === 'invalid') {
    departures.push({ where: 'request.body', expected: media, actual: parsed.reason });
    return;
  }
  const pointer = declared.media.get(media);
  if (pointer === undefined) return;
  for (const failure of contract.check(pointer, schemaValue(parsed))) {
    departures.push(schemaDeparture('request.body', failure));
  }
}

function checkHeaders(
  contract: Contract,
  answer: DeclaredAnswer,
  view: ExchangeView,
  departures: Departure[],
): void {
  for (const header of answer.headers) {
    const name = header.name.toLowerCase();
    const value = view.responseHeaders[name];
    const required = header.required || (view.status === 429 && RATE_LIMIT_HEADERS.includes(name));
    if (value === undefined) {
      if (required)
        departures.push({
          where: `response header ${header.name}`,
          expected: 'present (required)',
          actual: 'absent',
        });
      continue;
    }
    if (header.pointer === undefined || contract.check(header.pointer, value).length === 0) continue;
    // A header is text; a schema of a number or boolean is checked against the value it spells.
    const spelled = /^-?\d+(\.\d+)?$/.test(value)
      ? Number(value)
      : value === 'true' || value === 'false'
        ? value === 'true'
        : value;
    const [failure] =
      spelled === value ? contract.check(header.pointer, value) : contract.check(header.pointer, spelled);
    if (failure) {
      departures.push({
        where: `response header ${header.name}`,
        expected: `${failure.keyword}: ${failure.message}`,
        actual: shortValue(value),
      });
    }
  }
}

function checkAnswerBody(
  contract: Contract,
  answer: DeclaredAnswer,
  media: string | undefined,
  parsed: ParsedBody,
  departures: Departure[],
  notes: string[],
): void {
  if (answer.mediaTypes.length === 0) {
    if (parsed.kind !== 'none') {
      departures.push({
        where: 'response.body',
        expected: 'no body',
        actual: `a body (${media ?? 'no content-type'})`,
      });
    }
    return;
  }
  if (parsed.kind === 'none' && media === undefined) {
    departures.push({ where: 'response.body', expected: answer.mediaTypes.join(' or '), actual: 'no body' });
    return;
  }
  if (media === undefined || !answer.mediaTypes.includes(media)) {
    departures.push({
      where: 'response content-type',
      expected: answer.mediaTypes.join(' or '),
      actual: media ?? 'absent',
    });
    return;
  }
  if (parsed.kind === 'too-large') {
    notes.push(`response body of ${parsed.size} bytes is over the validation limit: not validated`);
    return;
  }
  if (parsed.kind === 'too-deep') {
    notes.push(`response body nests deeper than ${MAX_JSON_DEPTH} levels: not validated`);
    return;
  }
  if (parsed.kind === 'invalid') {
    departures.push({ where: 'response.body', expected: media, actual: parsed.reason });
    return;
  }
  const pointer = contract.answerSchema(answer, media);
  if (pointer === undefined) return;
  if (isJsonMedia(media) && parsed.kind !== 'json') {
    departures.push({ where: 'response.body', expected: media, actual: 'no body' });
    return;
  }
  for (const failure of contract.check(pointer, schemaValue(parsed))) {
    departures.push(schemaDeparture('response.body', failure));
  }
}

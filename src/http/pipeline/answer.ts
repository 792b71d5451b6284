export type AnswerBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

/**
 * What the request path answers, whichever transport carries it: a status, the headers as
 * name/value pairs (the form Node's `writeHead` takes), and the body. Built by the operation
 * context (`c.json`, `c.body`, `c.header`) and by the pipeline's refusals, completed by the
 * pipeline (`Request-Id`, `RateLimit-*`, compression) and written by the entry that received
 * the request: Node's response, or a fetch `Response` for in-process calls.
 */
export class Answer {
  constructor(
    public status: number,
    public headers: string[],
    public body: AnswerBody,
    /** The request's own headers (`Request-Id`, `RateLimit-*`) are already at its head. */
    public headed = false,
  ) {}
}

export function answer(status: number, headers: string[], body: AnswerBody): Answer {
  return new Answer(status, headers, body);
}

export function isAnswer(value: unknown): value is Answer {
  return value instanceof Answer;
}

/** The value of a header of the answer (names compare without case), or undefined. */
export function answerHeader(headers: readonly string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) {
    if ((headers[i] as string).toLowerCase() === name) return headers[i + 1];
  }
  return undefined;
}

/** Sets a header in a pair list, replacing one of the same name (names compare without case). */
export function setPair(headers: string[], name: string, value: string): void {
  const lower = name.toLowerCase();
  for (let i = 0; i < headers.length; i += 2) {
    if ((headers[i] as string).toLowerCase() === lower) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

/** Removes a header from a pair list. */
export function deletePair(headers: string[], name: string): void {
  const lower = name.toLowerCase();
  for (let i = headers.length - 2; i >= 0; i -= 2) {
    if ((headers[i] as string).toLowerCase() === lower) headers.splice(i, 2);
  }
}

/** An answer as a fetch `Response` (in-process calls and requests the Node entry passed on). */
export function toResponse(a: Answer): Response {
  // A plain record: the Node adapter writes it as is (a Headers object would be copied again).
  const headers: Record<string, string> = {};
  for (let i = 0; i < a.headers.length; i += 2) {
    const name = a.headers[i] as string;
    const value = a.headers[i + 1] as string;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return new Response(a.body as ConstructorParameters<typeof Response>[0], { status: a.status, headers });
}

/**
 * A `Response` a handler built itself (rare: the operations answer through the context), read
 * into an answer. Async: its body may be a stream.
 */
export async function fromResponse(res: Response): Promise<Answer> {
  const headers: string[] = [];
  res.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  const type = res.headers.get('content-type') ?? '';
  const textual = /json|text|xml|javascript/i.test(type) && !res.headers.has('content-encoding');
  const body =
    res.body === null ? null : textual ? await res.text() : new Uint8Array(await res.arrayBuffer());
  return new Answer(res.status, headers, body);
}

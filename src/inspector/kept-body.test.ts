import { describe, expect, it } from 'vitest';
import { redactJsonText } from '../lib/redact.js';
import { keptRequestBody, keptResponseText, MAX_KEPT_BODY_CHARS } from './kept-body.js';

describe('what the inspector keeps of a body', () => {
  it('keeps a short JSON body parsed, secrets redacted', () => {
    expect(
      keptRequestBody('{"cpf":"1","password":"p","nested":[{"my_token":"t"}]}', 'application/json'),
    ).toEqual({
      cpf: '1',
      password: '[redacted]',
      nested: [{ my_token: '[redacted]' }],
    });
    expect(keptRequestBody('grant_type=x&client_secret=s', 'application/x-www-form-urlencoded')).toEqual({
      grant_type: 'x',
      client_secret: '[redacted]',
    });
    expect(keptRequestBody('not json svc_cs_abc', 'text/plain')).toBe('not json [redacted]');
  });

  it('redacts the value the request path parsed already, leaving that value as it was', () => {
    const text = '{"cpf":"1","client_secret":"svc_cs_x","nested":[{"id_token":"t"}]}';
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const kept = keptRequestBody(text, 'application/json', parsed);
    expect(kept).toEqual(keptRequestBody(text, 'application/json'));
    expect(kept).toEqual({ cpf: '1', client_secret: '[redacted]', nested: [{ id_token: '[redacted]' }] });
    expect(parsed).toEqual(JSON.parse(text));
    // A long body is still cut, whatever was parsed.
    const long = `{"name":"${'a'.repeat(MAX_KEPT_BODY_CHARS)}"}`;
    expect(keptRequestBody(long, 'application/json', JSON.parse(long))).toMatchObject({ truncated: true });
  });

  it('keeps a long body as its head and its size, never parsing it, secrets in the head redacted', () => {
    const text = `{"password":"p4ss","name":"${'é'.repeat(15 * 1024 * 1024)}"}`;
    const kept = keptRequestBody(text, 'application/json') as {
      truncated: boolean;
      original_bytes: number;
      text: string;
    };
    expect(kept.truncated).toBe(true);
    expect(kept.original_bytes).toBe(Buffer.byteLength(text));
    // 4,096 characters of the body; "[redacted]" in place of the password adds a few.
    expect(kept.text.length).toBe(MAX_KEPT_BODY_CHARS - 'p4ss'.length + '[redacted]'.length);
    expect(kept.text.startsWith('{"password":"[redacted]","name":"éé')).toBe(true);
  });

  it('keeps short answers as sent and truncates long ones into a JSON marker', () => {
    expect(keptResponseText('{"id":"x"}')).toBe('{"id":"x"}');
    const long = JSON.stringify({ data: 'x'.repeat(10_000), secret: 'whsec_abc' });
    const kept = JSON.parse(keptResponseText(long)) as {
      truncated: boolean;
      original_bytes: number;
      text: string;
    };
    expect(kept).toMatchObject({ truncated: true, original_bytes: long.length });
    expect(kept.text).toHaveLength(MAX_KEPT_BODY_CHARS);
  });

  it('redacts the head of a long answer on its way out of the log (the request pays no redaction)', () => {
    const long = JSON.stringify({
      client_secret: 'svc_cs_abc',
      hook: { secret: 'plain' },
      data: 'x'.repeat(10_000),
    });
    const kept = keptResponseText(long);
    expect((JSON.parse(kept) as { text: string }).text).toContain('svc_cs_abc');
    const shown = JSON.parse(redactJsonText(kept)) as {
      truncated: boolean;
      original_bytes: number;
      text: string;
    };
    expect(shown).toMatchObject({ truncated: true, original_bytes: long.length });
    expect(shown.text).not.toContain('svc_cs_abc');
    expect(shown.text).toContain('"client_secret":"[redacted]"');
    expect(shown.text).toContain('"secret":"[redacted]"');
    // A head without secrets is shown as kept.
    const plain = keptResponseText(JSON.stringify({ data: 'y'.repeat(10_000) }));
    expect(redactJsonText(plain)).toBe(plain);
  });
});

import { readFile } from 'node:fs/promises';
import { Contract } from './contract.js';

/** The OpenAPI document could not be had or read: says from where and why. */
export class ContractLoadError extends Error {
  override name = 'ContractLoadError';
}

/** Documents larger than this are refused (ours is ~0.5 MiB). */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/**
 * The contract from an OpenAPI document: an http(s) URL (fetched once) or a file. The proxy's
 * default is the upstream's own `/v3/openapi.json`, the document it serves.
 */
export async function loadContract(source: string): Promise<Contract> {
  let text: string;
  if (/^https?:\/\//i.test(source)) {
    const { request } = await import('undici');
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(source, { headersTimeout: 30_000, bodyTimeout: 30_000 });
    } catch (error) {
      throw new ContractLoadError(`could not fetch the OpenAPI document at ${source}: ${String(error)}`);
    }
    text = await answer.body.text();
    if (answer.statusCode !== 200) {
      throw new ContractLoadError(
        `the OpenAPI document at ${source} answered ${answer.statusCode}; give the document with --openapi <file|url>`,
      );
    }
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (error) {
      throw new ContractLoadError(
        `could not read the OpenAPI document ${source}: ${(error as Error).message}`,
      );
    }
  }
  if (text.length > MAX_DOCUMENT_BYTES)
    throw new ContractLoadError(`the OpenAPI document at ${source} is over 32 MiB`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new ContractLoadError(
      `the OpenAPI document at ${source} is not JSON (give the JSON form of the document)`,
    );
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ContractLoadError(`the OpenAPI document at ${source} is not a JSON object`);
  }
  try {
    return new Contract(document as Record<string, unknown>);
  } catch (error) {
    throw new ContractLoadError(
      `the OpenAPI document at ${source} cannot be used: ${(error as Error).message}`,
    );
  }
}

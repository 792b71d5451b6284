import { normalizeCnpj } from '../../finance/cnpj.js';
import { normalizeCpf } from '../../finance/cpf.js';
import { ApiError, type FieldError } from '../errors.js';

/**
 * Normalizes the tax ids of a request (CPF to 11 digits, CNPJ to 14 uppercase characters) or
 * refuses them all at once with 422, one `errors[]` entry per failing field. The shape was checked
 * at the edge (400); what fails here is the check-digit rule.
 */
export function normalizeTaxIds(input: { cpf?: string | undefined; cnpj?: string | null | undefined }): {
  cpf: string | undefined;
  cnpj: string | null | undefined;
} {
  const errors: FieldError[] = [];
  const cpf = input.cpf === undefined ? undefined : normalizeCpf(input.cpf);
  if (input.cpf !== undefined && cpf === null) {
    errors.push({
      param: 'cpf',
      code: 'invalid_cpf',
      detail: `cpf "${input.cpf}" fails its check digits (or repeats one digit); send a real CPF, e.g. 123.456.789-09`,
    });
  }
  const cnpj = input.cnpj === undefined || input.cnpj === null ? input.cnpj : normalizeCnpj(input.cnpj);
  if (typeof input.cnpj === 'string' && cnpj === null) {
    errors.push({
      param: 'cnpj',
      code: 'invalid_cnpj',
      detail: `cnpj "${input.cnpj}" fails its check digits (or repeats one character); numeric and alphanumeric CNPJs are accepted`,
    });
  }
  const first = errors[0];
  if (first) {
    throw new ApiError(
      errors.length === 1 ? (first.code as 'invalid_cpf' | 'invalid_cnpj') : 'invalid_cpf',
      errors.length === 1
        ? `${first.detail}.`
        : `Invalid tax ids: ${errors.map((e) => e.param).join(', ')}. See errors[].`,
      { param: first.param, errors },
    );
  }
  return { cpf: cpf ?? undefined, cnpj: cnpj as string | null | undefined };
}

import type { KycItemKind, KycItemRecord } from '../../store/records.js';

/** Documents uploaded through `POST /customers/{id}/documents`, with their labels. */
export const UPLOAD_TYPES = {
  identity_card_front: 'Identity document (RG or CNH), front',
  identity_card_back: 'Identity document (RG or CNH), back',
  selfie: 'Selfie holding the identity document',
  ccmei: 'MEI registration certificate (CCMEI)',
} as const;

/**
 * The requirement captured on the hosted biometrics page. Its kind stays `document` (the spec's
 * closed set is `document` | `data`; a new kind would break strictly typed clients), so the
 * description tells the client it is not uploaded and names the endpoint that captures it.
 */
export const BIOMETRICS_TYPE = 'biometrics';
export const BIOMETRICS_LABEL =
  'Facial biometrics (liveness capture): not uploaded; start a capture session with POST /v3/customers/{id}/biometrics';

/** Customer fields a reviewer can ask to correct (a `data` item), each fixed with PATCH. */
export const DATA_FIELDS = {
  name: 'Full name, as printed on the identity document',
  email: 'Email address',
  phone: 'Mobile phone number (E.164)',
  cnpj: 'Company tax id (CNPJ)',
  trading_name: 'Trading name of the company',
} as const;

export type UploadType = keyof typeof UPLOAD_TYPES;
export type DataField = keyof typeof DATA_FIELDS;

/** How an item is satisfied: a file upload, the hosted biometrics capture, or a corrected field. */
export type KycItemMode = 'upload' | 'capture' | 'data';

export function itemMode(item: Pick<KycItemRecord, 'kind' | 'type'>): KycItemMode {
  if (item.kind === 'data') return 'data';
  return item.type === BIOMETRICS_TYPE ? 'capture' : 'upload';
}

export function isDataField(type: string): type is DataField {
  return Object.hasOwn(DATA_FIELDS, type);
}

function item(kind: KycItemKind, type: string, description: string): KycItemRecord {
  return {
    kind,
    type,
    description,
    status: 'pending',
    message: null,
    uploaded_at: null,
    document_id: null,
    submissions: 0,
  };
}

/** The CCMEI requirement an MEI (a customer with a CNPJ) has on top of the individual's. */
export function ccmeiItem(): KycItemRecord {
  return item('document', 'ccmei', UPLOAD_TYPES.ccmei);
}

/**
 * The KYC requirements of a new customer (DESIGN.md): an individual uploads both sides of an
 * identity document and a selfie and passes biometrics; with a CNPJ (MEI) the CCMEI is added.
 */
export function initialKyc(profile: { cnpj: string | null }): KycItemRecord[] {
  const items = [
    item('document', 'identity_card_front', UPLOAD_TYPES.identity_card_front),
    item('document', 'identity_card_back', UPLOAD_TYPES.identity_card_back),
    item('document', 'selfie', UPLOAD_TYPES.selfie),
    item('document', BIOMETRICS_TYPE, BIOMETRICS_LABEL),
  ];
  if (profile.cnpj !== null) items.push(ccmeiItem());
  return items;
}

/** A `data` item asking for a field to be corrected (created by a correction request). */
export function dataItem(field: DataField): KycItemRecord {
  return item('data', field, DATA_FIELDS[field]);
}

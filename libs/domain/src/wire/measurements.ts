import type { ColumnsOfMembers, RECORD_COLUMN_MEMBERS } from './uplink-mapping';

/**
 * Measurements a decoder can derive; they become the uplink record's and data rows' members. Here,
 * in wire/, because they are members of the interface: the decoders (families/) produce them, the
 * uplink mappings and the device-metadata rules read them. The columns of the record's members
 * that a decoder fills (`from: 'decoder'` in RECORD_COLUMN_MEMBERS), so a new one is written there
 * only; NO_MEASUREMENTS (families/decoder.ts) stops compiling until it has it.
 */
export type Measurements = ColumnsOfMembers<Extract<(typeof RECORD_COLUMN_MEMBERS)[number], { readonly from: 'decoder' }>>;

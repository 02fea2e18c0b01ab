/** A vendor codec of the account (GET/POST /user/codec); its uid is usable as a device's decoder_ref. */
export interface CodecWire {
  uid: number;
  name: string;
  description: string;
  script: string;
}

/** An account, as a hand-over offer names it. */
export interface HandoverPartyWire {
  user_id: number;
  username: string;
}

/**
 * An offer to hand a device over to another account (docs/api.md §4): made by the owner, accepted
 * or declined by the receiving account, withdrawn by the owner. One open offer per device.
 */
export interface HandoverOfferWire {
  devEUI: string;
  label: string;
  from: HandoverPartyWire;
  to: HandoverPartyWire;
  created_unix: number;
}

/** GET /user/device/handover: the offers the caller received and those it made. */
export interface HandoverOffersWire {
  received: HandoverOfferWire[];
  made: HandoverOfferWire[];
}

/** The end of an offer that did not move the device. */
export interface HandoverClosedWire {
  devEUI: string;
  outcome: 'declined' | 'withdrawn';
}

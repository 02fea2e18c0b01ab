// SQL the device repositories share (not exported by the library).

/** Devices the account owns or that are shared with it; deleted ones are gone at once. */
export const ACCESSIBLE = `d.deleted_at IS NULL AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))`;

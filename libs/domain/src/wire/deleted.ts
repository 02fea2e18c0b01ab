/** What a delete answers (fence, codec, network, rule, integration): the uid, and that it is gone. */
export interface DeletedWire {
  uid: number;
  deleted: true;
}

/** DELETE /auth/register: the account deleted. */
export interface AccountDeletedWire {
  id: number;
  deleted: true;
}

/** DELETE /user/device/image/{eui}/{hash}. */
export interface ImageDeletedWire {
  hash: string;
  deleted: true;
}

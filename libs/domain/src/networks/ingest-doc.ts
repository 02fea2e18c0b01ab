/** What every network's own webhook route says of its body and its answer (OpenAPI description). */
export const WEBHOOK_NOTE =
  'The body is the network’s own message: members this service does not use are ignored (the network defines them). ' +
  'Answers 202 with a result per item; only a failure of the whole request (credentials, malformed JSON, body too large, a message the network does not send) is a 4xx. ' +
  'An account’s codec runs off the event loop within CPU budgets per delivery and per minute (CODEC_CPU_MS_PER_DELIVERY, CODEC_CPU_MS_PER_MINUTE); ' +
  'past them, or past 64 KiB / 32 levels of decoded output, that account’s uplinks are stored with payload_valid false and the reason, and every other item is stored as usual.';

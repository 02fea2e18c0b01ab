/**
 * MQTT topic templates: text with placeholders `{devEUI}`, `{event}` (the event type) and
 * `{account}` (the account id), e.g. `dts/{devEUI}/{event}`. A template names no wildcard and no
 * other placeholder, so every rendered topic is a valid topic to publish to.
 */
export const TOPIC_PLACEHOLDERS = ['devEUI', 'event', 'account'] as const;
export type TopicPlaceholder = (typeof TOPIC_PLACEHOLDERS)[number];
export const DEFAULT_TOPIC_TEMPLATE = 'dts/{devEUI}/{event}';
export const TOPIC_TEMPLATE_MAX_LENGTH = 200;

/** Why the template cannot be used, or null. */
export function topicTemplateProblem(template: string): string | null {
  if (template.length === 0) return 'must not be empty';
  if (template.length > TOPIC_TEMPLATE_MAX_LENGTH) return `must be at most ${TOPIC_TEMPLATE_MAX_LENGTH} characters`;
  if (/[+#]/.test(template)) return 'must not contain the wildcards + or #';
  if (template.startsWith('$')) return 'must not start with $ (reserved for the broker)';
  // Control characters, NUL included, are not allowed in MQTT topic names.
  if (/[\u0000-\u001f\u007f]/.test(template)) return 'must not contain control characters';
  const names = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] ?? '');
  const unknown = names.find((n) => !(TOPIC_PLACEHOLDERS as readonly string[]).includes(n));
  if (unknown !== undefined) return `has an unknown placeholder {${unknown}} (known: ${TOPIC_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`;
  if (/[{}]/.test(template.replace(/\{[^{}]*\}/g, ''))) return 'has an unbalanced { or }';
  return null;
}

export function renderTopic(template: string, values: Record<TopicPlaceholder, string>): string {
  return template.replace(/\{(devEUI|event|account)\}/g, (_, name: TopicPlaceholder) => values[name]);
}

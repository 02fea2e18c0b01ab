import type { BatteryMeasure, FenceTrigger } from './rule';

/** One line per alert, for people (the alert's `message`, the e-mail's subject). */
export const alertMessages = {
  fence: (device: string, fence: string, on: FenceTrigger) => `${device} ${on === 'leave' ? 'left' : 'entered'} fence ${fence}`,
  threshold: (device: string, member: string, value: number, limit: { above: number } | { below: number }) =>
    'above' in limit ? `${device}: ${member} ${value} is above ${limit.above}` : `${device}: ${member} ${value} is below ${limit.below}`,
  battery: (device: string, measure: BatteryMeasure, value: number, below: number) =>
    measure === 'percent' ? `${device}: battery at ${value} %, below ${below} %` : `${device}: battery at ${value} V, below ${below} V`,
  offline: (device: string, minutes: number) => `${device} has sent nothing for ${minutes} minute${minutes === 1 ? '' : 's'}`,
};

/** The e-mail for an alert raised or cleared. */
export function alertMail(message: string, action: 'raised' | 'cleared', atIso: string): { subject: string; text: string } {
  return action === 'raised'
    ? { subject: `Alert: ${message}`, text: `${message}\n\nRaised at ${atIso}.\n` }
    : { subject: `Cleared: ${message}`, text: `The alert "${message}" cleared at ${atIso}.\n` };
}

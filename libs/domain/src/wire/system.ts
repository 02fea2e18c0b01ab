export interface VersionWire {
  version: string;
  commit: string | null;
  api_version: string;
  started_unix: number;
}

export type RouteAuthLevel = 'none' | 'user' | 'admin' | 'ingest';

export interface RouteWire {
  method: string;
  path: string;
  auth: RouteAuthLevel;
}

export interface FeedbackCreatedWire {
  uid: number;
}

export const FEEDBACK_CATEGORIES = ['bug', 'feature', 'question', 'other'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

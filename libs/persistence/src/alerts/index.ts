export * from './alert-writes';
export * from './alerts.repository';
export * from './offline-watch.repository';
export * from './rules.repository';
export * from './alert-mails.repository';

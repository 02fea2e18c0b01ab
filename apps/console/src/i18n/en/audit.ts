/** The audit log, the administrators' and an organisation's (pages/AuditLog.tsx). */
export const audit = {
  title: 'Audit log',
  download: 'Download CSV',
  filter: {
    label: 'Filter the audit log',
    username: 'Account or sign-in name',
    action: 'Action contains',
    result: 'Result',
    any: 'Any',
    success: 'Succeeded',
    failure: 'Refused or failed',
    submit: 'Filter',
  },
  loading: 'Loading the audit log',
  columns: {
    at: 'When (UTC)',
    who: 'Who',
    action: 'Action',
    target: 'On',
    result: 'Result',
    ip: 'Address',
  },
  viaToken: '{{who}} (token {{token}})',
};

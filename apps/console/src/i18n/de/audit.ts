import type { Messages } from '../messages';

export const audit: Messages['audit'] = {
  title: 'Audit-Protokoll',
  download: 'CSV herunterladen',
  filter: {
    label: 'Audit-Protokoll filtern',
    username: 'Konto oder Anmeldename',
    action: 'Aktion enthält',
    result: 'Ergebnis',
    any: 'Alle',
    success: 'Erfolgreich',
    failure: 'Abgewiesen oder fehlgeschlagen',
    submit: 'Filtern',
  },
  loading: 'Audit-Protokoll wird geladen',
  columns: {
    at: 'Wann (UTC)',
    who: 'Wer',
    action: 'Aktion',
    target: 'Betrifft',
    result: 'Ergebnis',
    ip: 'Adresse',
  },
  viaToken: '{{who}} (Schlüssel {{token}})',
};

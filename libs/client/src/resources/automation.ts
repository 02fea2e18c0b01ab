import type {
  AlertQuery,
  AlertWire,
  CreatedIntegrationWire,
  CreateIntegrationRequest,
  CreateRuleRequest,
  DeliveriesQuery,
  DeliveryWire,
  IntegrationWire,
  RuleWire,
  TestSendWire,
  UpdateIntegrationRequest,
  UpdateRuleRequest,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';

export const integrationsApi = (t: Transport) => ({
  list: () => t.data<IntegrationWire[]>(ROUTES.integrationsList),
  get: (uid: number) => t.data<IntegrationWire>(ROUTES.integrationsGet, { params: { uid } }),
  /** 201; a webhook's signing secret is in this answer only. */
  create: (body: CreateIntegrationRequest) => t.data<CreatedIntegrationWire>(ROUTES.integrationsCreate, { body }),
  update: (uid: number, body: UpdateIntegrationRequest) => t.data<IntegrationWire>(ROUTES.integrationsUpdate, { params: { uid }, body }),
  remove: (uid: number) => t.data<{ uid: number; deleted: true }>(ROUTES.integrationsRemove, { params: { uid } }),
  deliveries: (uid: number, q: DeliveriesQuery = {}) => t.data<DeliveryWire[]>(ROUTES.integrationsDeliveries, { params: { uid }, query: { ...q } }),
  redeliver: (uid: number, id: number) => t.data<DeliveryWire>(ROUTES.integrationsRedeliver, { params: { uid, id } }),
  /** One signed test event, sent now; the answer says how it went (nothing is stored). */
  test: (uid: number) => t.data<TestSendWire>(ROUTES.integrationsTest, { params: { uid } }),
});

export const rulesApi = (t: Transport) => ({
  list: () => t.data<RuleWire[]>(ROUTES.rulesList),
  get: (uid: number) => t.data<RuleWire>(ROUTES.rulesGet, { params: { uid } }),
  create: (body: CreateRuleRequest) => t.data<RuleWire>(ROUTES.rulesCreate, { body }),
  update: (uid: number, body: UpdateRuleRequest) => t.data<RuleWire>(ROUTES.rulesUpdate, { params: { uid }, body }),
  remove: (uid: number) => t.data<{ uid: number; deleted: true }>(ROUTES.rulesRemove, { params: { uid } }),
});

export const alertsApi = (t: Transport) => ({
  list: (q: AlertQuery = {}) => t.data<AlertWire[]>(ROUTES.alertsList, { query: { ...q } }),
  get: (uid: number) => t.data<AlertWire>(ROUTES.alertsGet, { params: { uid } }),
  acknowledge: (uid: number) => t.data<AlertWire>(ROUTES.alertsAcknowledge, { params: { uid } }),
});

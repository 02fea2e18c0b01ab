import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import {
  type AlertsWidgetOptions,
  type ChartWidgetOptions,
  DASHBOARD_ALERT_STATES,
  DASHBOARD_PERIODS,
  DASHBOARD_SHARE_ROLES,
  type DashboardAlertState,
  type DashboardPeriod,
  type DashboardShareRole,
  type DashboardWidget,
  type DashboardWire,
  type DeletedWire,
  type GaugeWidgetOptions,
  type LatestWidgetOptions,
  type MapWidgetOptions,
} from '@dts/domain';

const EUI = { example: '70B3D57ED0001234', description: 'A device EUI the account reaches (16 hex digits).' };
const MEMBER = { example: 'temperature', description: 'A measurement of the data table (temperature, battery_voltage, …) or a number in payload_decoded.' };

export class ChartWidgetOptionsSchema implements ChartWidgetOptions {
  @ApiProperty({ type: [String], description: 'The devices drawn (1 to 12), each member of each one a line.' }) devices!: string[];
  @ApiProperty({ type: [String], example: ['temperature'], description: 'Data types (1 to 6), as the series route takes them.' }) members!: string[];
  @ApiProperty({ enum: DASHBOARD_PERIODS, description: 'How far back the chart looks from now.' }) period!: DashboardPeriod;
}
export class LatestWidgetOptionsSchema implements LatestWidgetOptions {
  @ApiProperty(EUI) device!: string;
  @ApiProperty(MEMBER) member!: string;
}
export class MapWidgetOptionsSchema implements MapWidgetOptions {
  @ApiProperty({ type: [String], description: 'The devices shown (1 to 12), each with its track over the period.' }) devices!: string[];
  @ApiProperty({ enum: DASHBOARD_PERIODS }) period!: DashboardPeriod;
}
export class AlertsWidgetOptionsSchema implements AlertsWidgetOptions {
  @ApiProperty({ type: [String], description: 'The devices whose alerts are listed; empty: every device.' }) devices!: string[];
  @ApiProperty({ enum: DASHBOARD_ALERT_STATES, description: 'active: the open ones only; all: the newest, open or cleared.' })
  state!: DashboardAlertState;
}
export class GaugeWidgetOptionsSchema implements GaugeWidgetOptions {
  @ApiProperty(EUI) device!: string;
  @ApiProperty(MEMBER) member!: string;
  @ApiProperty({ description: 'The value at the start of the arc.' }) min!: number;
  @ApiProperty({ description: 'The value at the end of the arc (greater than min).' }) max!: number;
}

abstract class WidgetPlacement {
  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{1,40}$', description: 'Chosen by the client, unique within the dashboard.' }) id!: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 100 }) title!: string | null;
  @ApiProperty({ minimum: 0, maximum: 11, description: 'Column of its left edge (x + w ≤ 12).' }) x!: number;
  @ApiProperty({ minimum: 0, maximum: 199, description: 'Row of its top edge.' }) y!: number;
  @ApiProperty({ minimum: 1, maximum: 12, description: 'Width in columns.' }) w!: number;
  @ApiProperty({ minimum: 1, maximum: 12, description: 'Height in rows.' }) h!: number;
}
export class ChartWidgetSchema extends WidgetPlacement {
  @ApiProperty({ enum: ['chart'] }) kind!: 'chart';
  @ApiProperty({ type: ChartWidgetOptionsSchema }) options!: ChartWidgetOptions;
}
export class LatestWidgetSchema extends WidgetPlacement {
  @ApiProperty({ enum: ['latest'] }) kind!: 'latest';
  @ApiProperty({ type: LatestWidgetOptionsSchema }) options!: LatestWidgetOptions;
}
export class MapWidgetSchema extends WidgetPlacement {
  @ApiProperty({ enum: ['map'] }) kind!: 'map';
  @ApiProperty({ type: MapWidgetOptionsSchema }) options!: MapWidgetOptions;
}
export class AlertsWidgetSchema extends WidgetPlacement {
  @ApiProperty({ enum: ['alerts'] }) kind!: 'alerts';
  @ApiProperty({ type: AlertsWidgetOptionsSchema }) options!: AlertsWidgetOptions;
}
export class GaugeWidgetSchema extends WidgetPlacement {
  @ApiProperty({ enum: ['gauge'] }) kind!: 'gauge';
  @ApiProperty({ type: GaugeWidgetOptionsSchema }) options!: GaugeWidgetOptions;
}

/** The models a widget is one of (registered with the controller's @ApiExtraModels). */
export const WIDGET_MODELS = [ChartWidgetSchema, LatestWidgetSchema, MapWidgetSchema, AlertsWidgetSchema, GaugeWidgetSchema];
export const WIDGET_ITEMS = { oneOf: WIDGET_MODELS.map((m) => ({ $ref: getSchemaPath(m) })) };

export class DashboardResponse implements DashboardWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'array', items: WIDGET_ITEMS }) widgets!: DashboardWidget[];
  @ApiProperty({ enum: DASHBOARD_SHARE_ROLES, nullable: true, description: 'Members of at least this role see it; null: its maker only.' })
  shared_role!: DashboardShareRole | null;
  @ApiProperty({ type: String, nullable: true, description: 'The maker’s username; null once their account is gone.' }) created_by!: string | null;
  @ApiProperty({ description: 'Whether the caller may change and delete it: its maker, or an admin of the organisation for a shared one.' })
  editable!: boolean;
  @ApiProperty() created_unix!: number;
  @ApiProperty() updated_unix!: number;
}

export class DashboardDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

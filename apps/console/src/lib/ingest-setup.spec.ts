import { HTTP_JSON, type HttpJsonMappingWire, REST, type ParsedItem } from '@dts/domain';
import { chirpstackIntegration, curlCommand, httpJsonBody, httpJsonUrl, parseCurlCommand, restBody, restUrl, ttsWebhook } from './ingest-setup';

const ORIGIN = 'https://dts.example.org';
const EUI = '70B3D57ED0000A01';
const only = (items: ParsedItem[]) => {
  expect(items).toHaveLength(1);
  const [item] = items;
  if (!item?.ok) throw new Error(`refused: ${JSON.stringify(item)}`);
  return item.uplink;
};
const uplinksOf = (delivery: ReturnType<NonNullable<typeof REST.ingest>['read']>) => ('uplinks' in delivery ? delivery.uplinks : []);

describe('ingest set-up', () => {
  it('names the routes the registry gives each network', () => {
    expect(restUrl(ORIGIN)).toBe(`${ORIGIN}/ingest/rest`);
    expect(httpJsonUrl(ORIGIN, 42)).toBe(`${ORIGIN}/ingest/http/42`);
    expect(ttsWebhook(ORIGIN, null)).toEqual({
      format: 'JSON',
      baseUrl: `${ORIGIN}/ingest/ttn`,
      header: 'Authorization',
      headerValue: 'Bearer <your ingest key>',
    });
    expect(chirpstackIntegration(ORIGIN, 'k')).toMatchObject({ endpoint: `${ORIGIN}/ingest/chirpstack`, header: 'Authorization', headerValue: 'Bearer k' });
  });

  it('shows a curl command that says what it sends, quotes and all', () => {
    const body = { ...restBody(EUI), note: "it's" };
    const command = curlCommand(restUrl(ORIGIN), 'abc', body);
    expect(command.split('\n')).toHaveLength(4);
    expect(parseCurlCommand(command)).toEqual({
      url: `${ORIGIN}/ingest/rest`,
      headers: { Authorization: 'Bearer abc', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  });

  it('gives a REST body the REST network reads as an uplink of the device', () => {
    const uplink = only(uplinksOf(REST.ingest!.read(restBody(EUI), {}, new Date(), undefined)));
    expect(uplink).toMatchObject({ devEUI: EUI, port: 1 });
    expect(Buffer.from(uplink.payload).toString('hex')).toBe('016700e1');
  });

  it('builds an HTTP JSON body at the mapping’s own paths, which the network reads back', () => {
    const mapping: HttpJsonMappingWire = {
      devEUI: 'end_device.eui',
      port: '/meta/fport',
      payload: 'data',
      payload_encoding: 'base64',
      time: null,
      rssi: 'rx[0].rssi',
      snr: null,
      message_id: null,
      fcnt: null,
      items: 'batch.uplinks',
    };
    const body = httpJsonBody(mapping, EUI);
    expect(body).toEqual({ batch: { uplinks: [{ end_device: { eui: EUI }, meta: { fport: 1 }, data: 'AWcA4Q==', rx: [{ rssi: -70 }] }] } });
    const uplink = only(uplinksOf(HTTP_JSON.ingest!.read(body, {}, new Date(), mapping)));
    expect(uplink).toMatchObject({ devEUI: EUI, port: 1, rssi: -70 });
    // The global network's mapping (none of the account's).
    expect(only(uplinksOf(HTTP_JSON.ingest!.read(httpJsonBody(null, EUI), {}, new Date(), null)))).toMatchObject({ devEUI: EUI, port: 1, rssi: -70, snr: 8 });
  });
});

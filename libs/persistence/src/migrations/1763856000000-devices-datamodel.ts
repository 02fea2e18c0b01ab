import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Devices with their metadata, sharing, fences, the datamodel enumerations with their seed
 * content, and the uplink tables that ingestion writes (and gateways are computed from).
 */
export class DevicesDatamodel1763856000000 implements MigrationInterface {
  name = 'DevicesDatamodel1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE network_types (uid integer PRIMARY KEY, type text NOT NULL UNIQUE)`);
    await q.query(`
      INSERT INTO network_types (uid, type) VALUES
        (1, 'LoRaWAN'), (2, 'Satellite'), (3, 'Cellular'), (4, 'Wonderland App'), (5, 'GPRS'), (6, 'Sigfox'), (7, 'Integrator')`);

    // A network is global (account_id NULL) or belongs to one account ("the user's domain").
    await q.query(`
      CREATE TABLE networks (
        uid            serial PRIMARY KEY,
        name           text NOT NULL,
        description    text NOT NULL DEFAULT '',
        interface      text,
        type_ref       integer NOT NULL REFERENCES network_types(uid),
        lorawan_net_id text,
        adapter        text NOT NULL CHECK (adapter IN ('simulated', 'ttn', 'chirpstack', 'rest')),
        account_id     integer REFERENCES accounts(id) ON DELETE CASCADE,
        created_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX networks_account_idx ON networks (account_id)`);
    await q.query(`
      INSERT INTO networks (uid, name, description, interface, type_ref, lorawan_net_id, adapter) VALUES
        (1, 'Simulated', 'Built-in simulated LoRaWAN network: accepts every downlink at once. The default for new devices.', 'REST_DIRECT', 1, NULL, 'simulated'),
        (2, 'The Things Stack', 'The Things Stack v3: uplinks by webhook (POST /ingest/ttn), downlinks by the push API.', 'REST', 1, '000013', 'ttn'),
        (3, 'ChirpStack', 'ChirpStack v4: uplinks by HTTP integration (POST /ingest/chirpstack), downlinks by the queue API.', 'REST', 1, NULL, 'chirpstack'),
        (4, 'Generic REST', 'Any integrator posting uplinks to POST /ingest/rest.', 'REST', 7, NULL, 'rest')`);
    await q.query(`SELECT setval('networks_uid_seq', 100)`);

    await q.query(`CREATE TABLE device_types (uid integer PRIMARY KEY, type_name text NOT NULL UNIQUE)`);
    await q.query(`INSERT INTO device_types (uid, type_name) VALUES (1, 'Tracker'), (2, 'Camera'), (3, 'Sensor'), (4, 'Actuator')`);

    await q.query(`CREATE TABLE manufacturers (uid integer PRIMARY KEY, name text NOT NULL UNIQUE)`);
    await q.query(`INSERT INTO manufacturers (uid, name) VALUES (1, 'Device Telemetry'), (2, 'Generic')`);

    await q.query(`
      CREATE TABLE decoders (
        uid            integer PRIMARY KEY,
        name           text NOT NULL UNIQUE,
        description    text NOT NULL,
        interface      text,
        type_ref       integer REFERENCES device_types(uid),
        lorawan_net_id text,
        device         text NOT NULL,
        manufacturer_ref integer NOT NULL REFERENCES manufacturers(uid)
      )`);
    await q.query(`
      INSERT INTO decoders (uid, name, description, interface, type_ref, device, manufacturer_ref) VALUES
        (1, 'raw', 'No decoding: the record keeps payload_hex and payload_raw.', 'builtin', NULL, 'Any device', 2),
        (2, 'Cayenne LPP', 'Cayenne Low Power Payload: channel, type, value triples (temperature, humidity, GPS, analog, voltage and every other LPP type).', 'builtin', 3, 'Cayenne LPP device', 2),
        (3, 'DT Tracker', 'GPS tracker family: position, fix quality, battery and firmware.', 'builtin', 1, 'DT-GPS-1', 1),
        (4, 'DT Environment', 'Environment sensor family: temperature, humidity, pressure, illuminance, CO2 and battery.', 'builtin', 3, 'DT-ENV-1', 1),
        (5, 'DT Camera Trap', 'Camera trap status: battery, temperature, photos taken and storage.', 'builtin', 2, 'DT-CAM-1', 1)`);

    // The device models per network type that GET /datamodel/network/by_type/{uid} lists.
    await q.query(`
      CREATE TABLE device_models (
        uid              integer PRIMARY KEY,
        name             text NOT NULL,
        reference        text NOT NULL UNIQUE,
        manufacturer_ref integer NOT NULL REFERENCES manufacturers(uid),
        device_type_ref  integer NOT NULL REFERENCES device_types(uid),
        network_type_ref integer NOT NULL REFERENCES network_types(uid),
        decoder_ref      integer REFERENCES decoders(uid)
      )`);
    await q.query(`
      INSERT INTO device_models (uid, name, reference, manufacturer_ref, device_type_ref, network_type_ref, decoder_ref) VALUES
        (1, 'DT-GPS-1 tracker', 'dt-gps-1', 1, 1, 1, 3),
        (2, 'DT-ENV-1 environment sensor', 'dt-env-1', 1, 3, 1, 4),
        (3, 'DT-CAM-1 camera trap', 'dt-cam-1', 1, 2, 1, 5),
        (4, 'Cayenne LPP sensor', 'cayenne-lpp-sensor', 2, 3, 1, 2),
        (5, 'LoRaWAN actuator', 'lorawan-actuator', 2, 4, 1, 1),
        (6, 'Cellular tracker', 'cellular-tracker', 2, 1, 3, 2),
        (7, 'Satellite tracker', 'satellite-tracker', 2, 1, 2, 1),
        (8, 'Sigfox sensor', 'sigfox-sensor', 2, 3, 6, 1),
        (9, 'Integrator device', 'integrator-device', 2, 3, 7, 2)`);

    // type: 1 measurement, 2 decoded position, 3 radio link, 4 network position, 5 device status.
    await q.query(`
      CREATE TABLE data_types (
        uid      integer PRIMARY KEY,
        label    text NOT NULL,
        alias    text NOT NULL UNIQUE,
        unit     text NOT NULL,
        type     integer NOT NULL,
        exponent text NOT NULL DEFAULT '0',
        "offset" integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      INSERT INTO data_types (uid, label, alias, unit, type, exponent, "offset") VALUES
        (1, 'Temperature', 'temperature', '°C', 1, '-1', 0),
        (2, 'Relative humidity', 'humidity', '%', 1, '-1', 0),
        (3, 'Battery voltage', 'battery_voltage', 'V', 5, '-3', 0),
        (4, 'Battery level', 'battery_percent', '%', 5, '0', 0),
        (5, 'Battery', 'battery', 'V', 5, '-3', 0),
        (6, 'Latitude', 'LAT', '°', 2, '-7', 0),
        (7, 'Longitude', 'LON', '°', 2, '-7', 0),
        (8, 'Altitude', 'ALT', 'm', 2, '-2', 0),
        (9, 'Network latitude', 'geoloc_LAT', '°', 4, '-7', 0),
        (10, 'Network longitude', 'geoloc_LON', '°', 4, '-7', 0),
        (11, 'Network altitude', 'geoloc_ALT', 'm', 4, '0', 0),
        (12, 'Signal strength', 'RSSI', 'dBm', 3, '0', 0),
        (13, 'Signal-to-noise ratio', 'SNR', 'dB', 3, '-1', 0),
        (14, 'Spreading factor', 'SF', '', 3, '0', 0),
        (15, 'Barometric pressure', 'pressure', 'hPa', 1, '-1', 0),
        (16, 'Illuminance', 'illuminance', 'lx', 1, '0', 0),
        (17, 'CO2 concentration', 'co2', 'ppm', 1, '0', 0),
        (18, 'Time to fix', 'ttf', 's', 2, '0', 0),
        (19, 'Dilution of precision', 'dop', '', 2, '-1', 0),
        (20, 'Photos taken', 'photos', '', 5, '0', 0)`);

    await q.query(`CREATE TABLE icons (uid integer PRIMARY KEY, name text NOT NULL UNIQUE, label text NOT NULL)`);
    await q.query(`
      INSERT INTO icons (uid, name, label) VALUES
        (1, 'pin', 'Pin'), (2, 'tracker', 'Tracker'), (3, 'sensor', 'Sensor'), (4, 'camera', 'Camera'), (5, 'actuator', 'Actuator'),
        (6, 'vehicle', 'Vehicle'), (7, 'animal', 'Animal'), (8, 'person', 'Person'), (9, 'boat', 'Boat'), (10, 'gateway', 'Gateway')`);

    // One row per device, metadata included, so that an uplink updates it with one UPDATE by key.
    // A deleted device keeps its row (deleted_at) until the worker has purged its history; its EUI
    // is free again at once.
    await q.query(`
      CREATE TABLE devices (
        uid              serial PRIMARY KEY,
        eui              text NOT NULL CHECK (eui ~ '^[0-9A-F]{16}$'),
        owner_id         integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_ref         integer REFERENCES accounts(id) ON DELETE SET NULL,
        label            text NOT NULL,
        folder           text,
        tags             jsonb,
        type_ref         integer REFERENCES device_types(uid),
        decoder_ref      integer REFERENCES decoders(uid),
        network_ref      integer REFERENCES networks(uid),
        icon_ref         integer REFERENCES icons(uid),
        installation_lat double precision,
        installation_lon double precision,
        lat              double precision,
        lon              double precision,
        alt              double precision,
        battery_percent  double precision,
        battery_voltage  double precision,
        temperature_dc   double precision,
        signal_percent   double precision,
        signal_dbm       double precision,
        firmware_version text,
        ts_activity_first timestamptz,
        ts_activity_last  timestamptz,
        ts_data_first     timestamptz,
        ts_data_last      timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        deleted_at       timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX devices_eui_live_idx ON devices (eui) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX devices_owner_idx ON devices (owner_id) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE device_shares (
        device_id  integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (device_id, account_id)
      )`);
    await q.query(`CREATE INDEX device_shares_account_idx ON device_shares (account_id)`);

    await q.query(`
      CREATE TABLE fences (
        uid        serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name       text NOT NULL,
        geometry   jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX fences_account_idx ON fences (account_id)`);

    // Every uplink as received, and the measurements derived from it (written by ingestion).
    await q.query(`
      CREATE TABLE uplinks (
        uid              bigserial PRIMARY KEY,
        device_id        integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        received_at      timestamptz NOT NULL,
        network_ref      integer REFERENCES networks(uid),
        message_id       text,
        port             smallint NOT NULL,
        fcnt             bigint,
        payload          bytea NOT NULL,
        sf               smallint,
        rssi             double precision,
        snr              double precision,
        geoloc_lat       double precision,
        geoloc_lon       double precision,
        geoloc_alt       double precision,
        decoded          jsonb,
        valid            boolean,
        decode_error     text,
        temperature      double precision,
        humidity         double precision,
        battery_voltage  double precision,
        battery_percent  double precision,
        lat              double precision,
        lon              double precision,
        alt              double precision,
        firmware_version text,
        ts_gps           timestamptz
      )`);
    await q.query(`CREATE INDEX uplinks_device_time_idx ON uplinks (device_id, received_at, uid)`);
    await q.query(`CREATE UNIQUE INDEX uplinks_message_idx ON uplinks (device_id, message_id) WHERE message_id IS NOT NULL`);

    // The gateways that heard each uplink, from the networks' rx metadata.
    await q.query(`
      CREATE TABLE uplink_gateways (
        uplink_id   bigint NOT NULL REFERENCES uplinks(uid) ON DELETE CASCADE,
        device_id   integer NOT NULL,
        gateway_id  text NOT NULL,
        network_ref integer,
        received_at timestamptz NOT NULL,
        rssi        double precision,
        snr         double precision,
        lat         double precision,
        lon         double precision,
        PRIMARY KEY (uplink_id, gateway_id)
      )`);
    await q.query(`CREATE INDEX uplink_gateways_device_time_idx ON uplink_gateways (device_id, received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'uplink_gateways',
      'uplinks',
      'fences',
      'device_shares',
      'devices',
      'icons',
      'data_types',
      'device_models',
      'decoders',
      'manufacturers',
      'device_types',
      'networks',
      'network_types',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}

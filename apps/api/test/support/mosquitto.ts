import { eventually, freePort } from '@dts/platform';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A Mosquitto broker of the test's own (Debian's `mosquitto`), on a free loopback port, that wants
 * a user name and password: what a test needs to check credentials, or to stop a broker and start
 * it again on the same port.
 */
export class AuthBroker {
  readonly dir = mkdtempSync(join(tmpdir(), 'dts-mosquitto-'));
  port = 0;
  private child: ChildProcess | null = null;

  constructor(
    readonly username: string,
    readonly password: string,
  ) {}

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    if (this.port === 0) {
      this.port = await freePort();
      execFileSync('mosquitto_passwd', ['-b', '-c', join(this.dir, 'passwd'), this.username, this.password]);
      // Started as root, mosquitto drops to its own user, which must still read these.
      chmodSync(this.dir, 0o755);
      chmodSync(join(this.dir, 'passwd'), 0o644);
      writeFileSync(
        join(this.dir, 'mosquitto.conf'),
        [`listener ${this.port} 127.0.0.1`, 'allow_anonymous false', `password_file ${join(this.dir, 'passwd')}`, 'persistence false', ''].join('\n'),
      );
    }
    this.child = spawn('mosquitto', ['-c', join(this.dir, 'mosquitto.conf')], { stdio: 'ignore' });
    await eventually(() => listening(this.port), { what: `mosquitto to listen on ${this.port}`, intervalMs: 50 });
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

import { BaseRepository } from './base-repository.ts';
import type { IDeviceLogin } from '../entities/device-login.ts';
import { newId } from '../ids.ts';

export class DeviceLoginRepository extends BaseRepository<IDeviceLogin> {
  /** The sign-in a person was shown this code for (`ABCD-EFGH`), whatever its state. */
  findByUserCode(userCode: string): Promise<IDeviceLogin | null> {
    return this.findOne({ userCode });
  }

  /** The sign-in a device polls for with this code's hash, whatever its state. */
  findByDeviceCodeHash(deviceCodeHash: string): Promise<IDeviceLogin | null> {
    return this.findOne({ deviceCodeHash });
  }

  /** Queues a pending sign-in, with where it was asked from; the unique indexes refuse a repeated code at flush. */
  start(deviceCodeHash: string, userCode: string, deviceName: string, expiresAt: Date, from: { ip: string | null; userAgent: string | null }): IDeviceLogin {
    return this.create({
      id: newId('dvl'),
      deviceCodeHash,
      userCode,
      deviceName,
      state: 'pending',
      user: null,
      expiresAt,
      lastPolledAt: null,
      approverAuthenticatedAt: null,
      requestedIp: from.ip,
      requestedUserAgent: from.userAgent,
    });
  }

  /**
   * Approves or denies a pending, unexpired sign-in as one conditional update, so two decisions at
   * once record one; `by` is the deciding session (when its person last proved who they are). True
   * when this call decided it.
   */
  async decide(id: string, by: { userId: string; authenticatedAt: Date }, state: 'approved' | 'denied', now: Date): Promise<boolean> {
    const changed = await this.nativeUpdate(
      { id, state: 'pending', expiresAt: { $gt: now } },
      { state, user: by.userId, approverAuthenticatedAt: state === 'approved' ? by.authenticatedAt : null },
    );
    return changed === 1;
  }

  /** Marks an approved sign-in used, once: of two polls at once, only one gets the session. */
  async redeem(id: string): Promise<boolean> {
    return (await this.nativeUpdate({ id, state: 'approved' }, { state: 'used' })) === 1;
  }

  /** Takes back every approved sign-in of the person a device has not collected yet: a session it would have got. */
  async denyApprovedOf(userId: string): Promise<void> {
    await this.nativeUpdate({ user: userId, state: 'approved' }, { state: 'denied' });
  }

  /** Notes when the device last asked, to tell a device that polls too fast to slow down. */
  async notePoll(id: string, now: Date): Promise<void> {
    await this.nativeUpdate({ id }, { lastPolledAt: now });
  }
}

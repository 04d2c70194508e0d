import { SqlEntityRepository } from '@mikro-orm/sql';
import type { IAutoReplyStop } from '../entities/auto-reply-stop.ts';

export class AutoReplyStopRepository extends SqlEntityRepository<IAutoReplyStop> {
  /** Whether `email` asked for no more auto-replies from the workspace's forms. */
  async isStopped(workspaceId: string, email: string): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>('select 1 from auto_reply_stops where workspace_id = ? and email = ?', [workspaceId, email]);
    return rows.length > 0;
  }

  /** Records the stop, once: asking again changes nothing. */
  async stop(workspaceId: string, email: string, at: Date): Promise<void> {
    await this.em.execute('insert into auto_reply_stops (workspace_id, email, created_at) values (?, ?, ?) on conflict do nothing', [workspaceId, email, at]);
  }
}

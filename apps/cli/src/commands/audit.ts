import { Command } from '@commander-js/extra-typings';
import { examples } from './options.ts';
import { workspaceListCommand } from './workspace-list.ts';

const auditListCommand = () =>
  workspaceListCommand({
    description: 'Who did what in the workspace, newest first: people and API keys (owners)',
    fetch: (api, workspaceId, input) => api.auditEvents.list.query({ workspace_id: workspaceId, ...input }),
    columns: [
      { header: 'WHEN', value: (e) => e.created_at, time: true },
      { header: 'ACTION', value: (e) => e.action },
      { header: 'BY', value: (e) => e.actor.id },
      { header: 'ON', value: (e) => (e.target ? e.target.id : ''), optional: true },
      { header: 'ID', value: (e) => e.id, optional: true },
    ],
    commandLine: 'lfk audit list',
  });

export const auditCommand = () =>
  new Command('audit')
    .description("The workspace's audit log (owners)")
    .addHelpText('after', examples(['lfk audit list', 'lfk audit list --all --json']))
    .addCommand(auditListCommand());

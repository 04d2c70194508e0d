import { commandGroup } from './options.ts';
import { workspaceListCommand } from './workspace-list.ts';

const auditListCommand = () =>
  workspaceListCommand('Who did what in the workspace, newest first: people and API keys (owners)', (api) => api.auditEvents.list, [
    { header: 'WHEN', value: (e) => e.created_at, time: true },
    { header: 'ACTION', value: (e) => e.action },
    { header: 'BY', value: (e) => e.actor.id },
    { header: 'ON', value: (e) => (e.target ? e.target.id : ''), optional: true },
    { header: 'ID', value: (e) => e.id, optional: true },
  ]);

export const auditCommand = () =>
  commandGroup('audit', "The workspace's audit log (owners)", [auditListCommand()], ['lfk audit list', 'lfk audit list --all --json']);

import { defineFeature } from '../../feature.ts';
import { secretScanningRouter } from './router.ts';
import { secretScanningSettings } from './settings.ts';

export const secretScanningFeature = defineFeature({
  name: 'secretScanning',
  router: secretScanningRouter,
  settings: secretScanningSettings,
  services: (_, settings) => ({ secretScanningKeys: settings.secretScanningKeys }),
});

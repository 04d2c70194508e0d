import { hydrateRoot } from 'react-dom/client';
import { App, type AppProps } from './app.tsx';

const props = JSON.parse(document.getElementById('props')!.textContent!) as AppProps;
hydrateRoot(document.getElementById('root')!, <App {...props} />);

import { render } from 'preact';
import { App } from './app.js';
import './styles/layout.css';
import './styles/chat.css';
import './styles/composer.css';
import './styles/blocks.css';
import './styles/workflows.css';

const root = document.getElementById('root');
if (root) render(<App />, root);

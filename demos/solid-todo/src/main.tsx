import { render } from 'solid-js/web';
import '../../styles.css';
import { App } from './App';

render(() => <App />, document.getElementById('app')!);

// antd's inputs one by one: its `Input` namespace would bring the text area and the search box
// into the sign-in page, which uses neither.
export { default as Input } from 'antd/es/input/Input';
export { default as OTP } from 'antd/es/input/OTP';
export { default as Password } from 'antd/es/input/Password';

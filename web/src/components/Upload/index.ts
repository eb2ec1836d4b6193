export { default as SingleImageUpload, type SingleImageUploadProps } from './SingleImageUpload';
export { default as MultiImageUpload, type MultiImageUploadProps } from './MultiImageUpload';
export { default as FileUpload, type FileUploadProps, type QueueItem, type QueueStatus } from './FileUpload';
export * from './core';

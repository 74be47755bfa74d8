// page.js — runs inside headless Chromium, served by render_threejs.mjs on 127.0.0.1.
// Loads one glTF with three.js' GLTFLoader, makes every material unlit (base colour only), poses
// the animation at a time, frames the model by the camera rule of docs/rendering-reference.md
// and returns the framebuffer as RGBA rows (top row first) with the camera that was used.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js';
import { KTX2Loader } from 'three/addons/loaders/KTX2Loader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';

const VIEWS = {
  // name: [yaw degrees about +Y from +Z towards +X, pitch degrees above the horizon]
  auto: [30, 20],
  front: [0, 0],
  back: [180, 0],
  right: [90, 0],
  left: [-90, 0],
  top: [0, 90],
  bottom: [0, -90],
};
const FOV_Y = 45;

// The unlit equivalent of a glTF material: base colour factor × base colour texture × vertex
// colour, with alpha mode, alpha cutoff, double-sidedness and the texture transform (kept on the
// texture object by GLTFLoader) carried over. Points and lines already use unlit materials.
function unlit(m) {
  if (!m.isMeshStandardMaterial && !m.isMeshPhysicalMaterial) return m;
  const u = new THREE.MeshBasicMaterial({
    name: m.name,
    color: m.color.clone(),
    map: m.map,
    vertexColors: m.vertexColors,
    alphaTest: m.alphaTest,
    transparent: m.transparent,
    opacity: m.opacity,
    side: m.side,
    depthWrite: m.depthWrite,
    blending: m.blending,
  });
  return u;
}

function cameraFor(box, view, width, height) {
  const aspect = width / height;
  const center = box.getCenter(new THREE.Vector3());
  let radius = box.isEmpty() ? 0 : 0.5 * box.getSize(new THREE.Vector3()).length();
  if (!(radius > 0)) radius = 1;
  const halfY = THREE.MathUtils.degToRad(FOV_Y) / 2;
  const halfX = Math.atan(Math.tan(halfY) * aspect);
  const dist = radius / Math.sin(Math.min(halfX, halfY));
  const [yawDeg, pitchDeg] = VIEWS[view];
  const yaw = THREE.MathUtils.degToRad(yawDeg), pitch = THREE.MathUtils.degToRad(pitchDeg);
  const dir = new THREE.Vector3(Math.cos(pitch) * Math.sin(yaw), Math.sin(pitch),
                                Math.cos(pitch) * Math.cos(yaw));
  const up = Math.abs(pitchDeg) === 90 ? new THREE.Vector3(0, 0, pitchDeg > 0 ? -1 : 1)
                                       : new THREE.Vector3(0, 1, 0);
  const camera = new THREE.PerspectiveCamera(FOV_Y, aspect, dist - 1.1 * radius,
                                             dist + 1.1 * radius);
  camera.position.copy(center).addScaledVector(dir, dist);
  camera.up.copy(up);
  camera.lookAt(center);
  camera.updateMatrixWorld(true);
  camera.updateProjectionMatrix();
  return { camera, center, radius, dist, up };
}

// The world-space box of every vertex that is drawn (meshes, lines, points), morphed with the
// default weights and skinned, each instance of EXT_mesh_gpu_instancing apart; vertices with a
// non-finite coordinate are left out.
function restBounds(scene) {
  const box = new THREE.Box3();
  const v = new THREE.Vector3(), m = new THREE.Matrix4(), inst = new THREE.Matrix4();
  scene.traverseVisible((o) => {
    const pos = o.geometry && o.geometry.getAttribute('position');
    if (!pos) return;
    const n = o.isInstancedMesh ? o.count : 1;
    for (let k = 0; k < n; k++) {
      m.copy(o.matrixWorld);
      if (o.isInstancedMesh) m.multiply((o.getMatrixAt(k, inst), inst));
      for (let i = 0; i < pos.count; i++) {
        if (o.isMesh) o.getVertexPosition(i, v); else v.fromBufferAttribute(pos, i);
        v.applyMatrix4(m);
        if (Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z)) {
          box.expandByPoint(v);
        }
      }
    }
  });
  return box;
}

window.kilnRender = async (opt) => {
  const warnings = [];
  const origWarn = console.warn;
  console.warn = (...a) => { warnings.push(a.map(String).join(' ')); origWarn(...a); };

  const canvas = document.createElement('canvas');
  canvas.width = opt.width;
  canvas.height = opt.height;
  document.body.appendChild(canvas);
  const renderer = new THREE.WebGLRenderer({
    canvas, antialias: false, alpha: true, premultipliedAlpha: false,
    preserveDrawingBuffer: true, powerPreference: 'default',
  });
  renderer.setPixelRatio(1);
  renderer.setSize(opt.width, opt.height, false);
  renderer.toneMapping = THREE.NoToneMapping;
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  const [br, bg, bb, ba] = opt.background;
  renderer.setClearColor(new THREE.Color().setRGB(br / 255, bg / 255, bb / 255,
                                                  THREE.SRGBColorSpace), ba / 255);

  const loader = new GLTFLoader();
  const draco = new DRACOLoader();
  draco.setDecoderPath('/three/examples/jsm/libs/draco/gltf/');
  loader.setDRACOLoader(draco);
  const ktx2 = new KTX2Loader();
  ktx2.setTranscoderPath('/three/examples/jsm/libs/basis/');
  ktx2.detectSupport(renderer);
  loader.setKTX2Loader(ktx2);
  loader.setMeshoptDecoder(MeshoptDecoder);

  const t0 = performance.now();
  const gltf = await loader.loadAsync(opt.url);
  const t1 = performance.now();
  const scene = gltf.scene || gltf.scenes[0];
  if (!scene) throw new Error('the file has no scene');

  let meshes = 0;
  scene.traverse((o) => {
    if (!o.material) return;
    meshes++;
    o.material = Array.isArray(o.material) ? o.material.map(unlit) : unlit(o.material);
    o.frustumCulled = false; // skinned/morphed bounds in three are the rest ones
  });

  // Bounds at rest (file transforms, default morph weights, joints at their node transforms).
  scene.updateMatrixWorld(true);
  scene.traverse((o) => { if (o.isSkinnedMesh) o.skeleton.update(); });
  let box = restBounds(scene);
  if (opt.bounds) {
    box = new THREE.Box3(new THREE.Vector3(...opt.bounds.slice(0, 3)),
                         new THREE.Vector3(...opt.bounds.slice(3, 6)));
  }

  // Pose: one clip (or all, or none) at time T, clamped to the clip's duration.
  let clips = [];
  if (opt.clip === 'all') clips = gltf.animations;
  else if (opt.clip !== 'none' && gltf.animations.length > 0) {
    const i = Number(opt.clip);
    if (!(i >= 0 && i < gltf.animations.length)) throw new Error(`no clip ${opt.clip}`);
    clips = [gltf.animations[i]];
  }
  if (clips.length > 0) {
    const mixer = new THREE.AnimationMixer(scene);
    for (const c of clips) {
      const a = mixer.clipAction(c);
      a.setLoop(THREE.LoopOnce, 1);
      a.clampWhenFinished = true;
      a.play();
    }
    mixer.setTime(opt.time);
  }
  scene.updateMatrixWorld(true);

  const cam = cameraFor(box, opt.view, opt.width, opt.height);
  renderer.render(scene, cam.camera);

  const gl = renderer.getContext();
  gl.finish();
  const t2 = performance.now();
  const px = new Uint8Array(opt.width * opt.height * 4);
  gl.readPixels(0, 0, opt.width, opt.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const rowBytes = opt.width * 4;
  const flipped = new Uint8Array(px.length);
  for (let y = 0; y < opt.height; y++) {
    flipped.set(px.subarray((opt.height - 1 - y) * rowBytes, (opt.height - y) * rowBytes),
                y * rowBytes);
  }
  let bin = '';
  for (let i = 0; i < flipped.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, flipped.subarray(i, i + 0x8000));
  }
  const c = cam.camera;
  const info = {
    renderer: gl.getParameter(gl.VERSION) + ' / ' +
      (gl.getExtension('WEBGL_debug_renderer_info')
         ? gl.getParameter(gl.getExtension('WEBGL_debug_renderer_info').UNMASKED_RENDERER_WEBGL)
         : gl.getParameter(gl.RENDERER)),
    three: THREE.REVISION,
    meshes,
    clips: gltf.animations.map((a) => ({ name: a.name, duration: a.duration })),
    posed: clips.map((a) => a.name),
    bounds: { min: box.min.toArray(), max: box.max.toArray() },
    camera: {
      view: opt.view, fov_y_deg: FOV_Y, aspect: c.aspect,
      center: cam.center.toArray(), radius: cam.radius, distance: cam.dist,
      eye: c.position.toArray(), up: cam.up.toArray(), near: c.near, far: c.far,
      // column-major, OpenGL clip space (z in -1..1, y up), as three.js uses them
      view_matrix: c.matrixWorldInverse.toArray(),
      projection_matrix: c.projectionMatrix.toArray(),
    },
    warnings,
    time_ms: { load: Math.round(t1 - t0), pose_render: Math.round(t2 - t1) },
  };
  console.warn = origWarn;
  return { rgba: btoa(bin), info };
};
window.kilnReady = true;

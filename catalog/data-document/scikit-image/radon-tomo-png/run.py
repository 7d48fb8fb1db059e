"""Parallel-beam tomography of the Shepp-Logan phantom with scikit-image: radon sinogram, FBP or SART
reconstruction, PNGs."""

import os

import numpy as np
from skimage import data, exposure, io, transform, util


def main(scn):
    out_dir = os.environ["SWR_ARTIFACTS"]
    image = transform.rescale(data.shepp_logan_phantom(), float(scn["scale"]), anti_aliasing=True)
    theta = np.linspace(0.0, float(scn["arc_deg"]), int(scn["n_angles"]), endpoint=False)
    sino = transform.radon(image, theta=theta, circle=True)
    if scn["method"] == "fbp":
        recon = transform.iradon(
            sino, theta=theta, filter_name=str(scn["filter"]), interpolation=str(scn["interpolation"]), circle=True
        )
    else:
        recon = transform.iradon_sart(sino, theta=theta)
        for _ in range(int(scn["sart_iterations"]) - 1):
            recon = transform.iradon_sart(sino, theta=theta, image=recon)
    err = recon - image
    sino_u8 = util.img_as_ubyte(exposure.rescale_intensity(sino, out_range=(0.0, 1.0)))
    recon_u8 = util.img_as_ubyte(np.clip(recon, 0.0, 1.0))
    io.imsave(os.path.join(out_dir, "sinogram.png"), sino_u8, check_contrast=False)
    io.imsave(os.path.join(out_dir, "reconstruction.png"), recon_u8, check_contrast=False)
    return {
        "sinogram_image": "sinogram.png",
        "reconstruction_image": "reconstruction.png",
        "image_shape": [float(s) for s in image.shape],
        "sinogram_shape": [float(s) for s in sino.shape],
        "sinogram_max": float(sino.max()),
        "rms_error": float(np.sqrt(np.mean(err**2))),
        "max_abs_error": float(np.abs(err).max()),
    }

//! Cells the collision module's tests share: the shipped demo cell and, with URDF support,
//! the spherized Panda alone and two Pandas among obstacles.

use crate::robot::Cell;

/// The shipped demo cell (DH arms, capsules anchored on two links) and, with URDF
/// support, the spherized Panda with its SRDF (a URDF tree).
pub(super) fn demo_and_panda_cells() -> Vec<Cell> {
    #[cfg_attr(not(feature = "urdf"), allow(unused_mut))]
    let mut cells = vec![Cell::shipped_demo()];
    #[cfg(feature = "urdf")]
    {
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/robots/panda");
        let model = crate::robot::urdf::load_urdf(
            &folder.join("panda_spherized.urdf"),
            Some(&folder.join("panda.srdf")),
            &crate::robot::urdf::UrdfOptions::default(),
        )
        .unwrap();
        cells.push(Cell::single(model));
        // Two Pandas among boxes and a cylinder: a contact search's grid over obstacles,
        // with blocks of each robot's own pairs and of the two robots' pairs beside it.
        let among = "name = \"Pandas among boxes\"\nunits = { length = \"m\", angle = \"rad\" }\n\
            [[robots]]\nlabel = \"R1\"\nmodel = \"panda_spherized.urdf\"\nsrdf = \"panda.srdf\"\n\
            [[robots]]\nlabel = \"R2\"\nmodel = \"panda_spherized.urdf\"\nsrdf = \"panda.srdf\"\n\
            base = { xyz = [0.9, 0, 0], rpy = [0, 0, 3.14159] }\n\
            [[obstacles]]\nname = \"shelf\"\n\
            box = { center = [0.5, 0.0, 0.4], half_extents = [0.2, 0.4, 0.02] }\n\
            [[obstacles]]\nname = \"post\"\n\
            box = { center = [0.3, 0.3, 0.3], half_extents = [0.05, 0.05, 0.3], rpy = [0, 0, 0.5] }\n\
            [[obstacles]]\nname = \"can\"\n\
            cylinder = { a = [-0.4, 0.2, 0.0], b = [-0.4, 0.2, 0.5], radius = 0.08 }\n";
        cells.push(Cell::parse(among, "among.cell.toml", &folder).unwrap());
    }
    cells
}
